import Synchronization

/// The streams of other applications that belong to a call (`media.role` phone), playing or
/// recording. A call is one or more of them: only the first one's arrival and the last one's
/// departure change anything.
final class CallStreams: Sendable {
    /// A stream as the server numbers it: sink inputs and source outputs have indexes of their own.
    struct Stream: Hashable, Sendable {
        enum Kind: Sendable { case playback, capture }
        let kind: Kind
        let index: UInt32
    }

    enum Change: Sendable { case started, ended }

    private let streams = Mutex<Set<Stream>>([])

    /// Notes what `stream` is now (a call stream, or not or no longer there).
    /// - Returns: `.started` when it is the first call stream, `.ended` when the last one went; nil otherwise.
    func note(_ stream: Stream, isCall: Bool) -> Change? {
        streams.withLock { calls in
            let wasCall = !calls.isEmpty
            if isCall { calls.insert(stream) } else { calls.remove(stream) }
            switch (wasCall, calls.isEmpty) {
            case (false, false): return .started
            case (true, true): return .ended
            default: return nil
            }
        }
    }

    func forgetAll() { streams.withLock { $0.removeAll() } }
}
