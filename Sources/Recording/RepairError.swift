import Glibc

/// Makes a recording whose writer died (a kill, a power cut) a valid WAV file again, and says its seconds of audio:
/// the memos are recovered through it without knowing the file format (the service hands in Audio's
/// `RecordingRepair.repair`).
public typealias RecordingRepairing = @Sendable (_ path: String) throws(RepairError) -> Double

/// Why a recording could not be repaired, said as the end of a sentence about its memo.
public struct RepairError: Error, Sendable {
    public let path: String
    /// The `errno` of the operation that failed; nil for a file that is not a recording Notula wrote.
    public let code: Int32?

    public init(path: String, code: Int32?) {
        self.path = path
        self.code = code
    }

    public var reason: String {
        switch code {
        case nil: "its audio file \(path) is not a recording Notula wrote"
        case ENOENT: "its audio file \(path) is gone"
        case let code?: "its audio file \(path) cannot be repaired: \(String(cString: strerror(code)))"
        }
    }
}
