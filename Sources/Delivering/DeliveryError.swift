/// Why text could not be put where the user types, in words that say what to do next ("Install wtype", "Allow
/// the remote-control request"): the message of `org.notula.Notula1.Error.OutputUnavailable` and of its banner.
public struct DeliveryError: Error, Equatable, Sendable {
    public let message: String
    /// Whether the text is on the clipboard already (and the message says so): nothing more to try.
    public let leftOnClipboard: Bool

    public init(_ message: String, leftOnClipboard: Bool = false) {
        self.message = message
        self.leftOnClipboard = leftOnClipboard
    }
}
