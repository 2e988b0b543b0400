/// Why text could not be put where the user types, in words that say what to do next ("Install wtype", "Allow
/// the remote-control request"): the message of `org.notula.Notula1.Error.OutputUnavailable` and of its banner.
public struct DeliveryError: Error, Equatable, Sendable {
    public let message: String

    public init(_ message: String) { self.message = message }
}
