/// Who called, named as xdg-desktop-portal names callers.
public struct Caller: Sendable, Equatable {
    /// The unique name, ":1.42".
    public let busName: String
    public let processID: UInt32
    /// Flatpak's or Snap's app id when the process is sandboxed, else nil. Empty when the process is sandboxed but its
    /// id cannot be read (a `.flatpak-info` notulad may not read, a Snap label it cannot parse): never a permission's key.
    public let appID: String?
    /// What a person is shown: the app id when sandboxed, else the executable's name.
    public let program: String

    public var isSandboxed: Bool { appID != nil }

    public init(busName: String, processID: UInt32, appID: String?, program: String) {
        self.busName = busName
        self.processID = processID
        self.appID = appID
        self.program = program
    }
}
