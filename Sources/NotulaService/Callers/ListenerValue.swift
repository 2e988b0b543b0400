import DBus
import Dictating

extension Listener {
    /// `Listeners`' type: (stream, program, connection, since) each.
    static let busElement: Signature = "(sssx)"
    static let busSignature: Signature = "a(sssx)"

    var busValue: Value { .structure([.string(stream.rawValue), .string(caller.program), .string(caller.busName), .int64(since)]) }
}
