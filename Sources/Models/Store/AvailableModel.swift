/// A model a user may choose for a locale: one of the catalog's current ones, or one on this machine.
public struct AvailableModel: Sendable, Equatable {
    public let locale: String
    public let name: String
    public let kind: ModelKind
    /// What an installed model takes on disk; for another, its archive's size in the catalog.
    public let bytes: UInt64
    public let installed: Bool

    public init(locale: String, name: String, kind: ModelKind, bytes: UInt64, installed: Bool) {
        self.locale = locale
        self.name = name
        self.kind = kind
        self.bytes = bytes
        self.installed = installed
    }
}
