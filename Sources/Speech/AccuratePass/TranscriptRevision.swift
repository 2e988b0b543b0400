/// The accurate pass fell behind: the utterances Whisper had not written when the recording was sent, and the whole
/// text once it has. Equal only to itself.
public final class TranscriptRevision: Sendable, Equatable {
    /// The indices of the utterances still being decoded, as `revised` lines count them.
    public let pending: [Int]
    private let completion: Task<Transcript, Never>

    init(pending: [Int], completion: Task<Transcript, Never>) {
        self.pending = pending
        self.completion = completion
    }

    /// The recording's text with Whisper's for every utterance it could decode.
    public var completed: Transcript {
        get async { await completion.value }
    }

    /// Stops the decodings: the memo is gone.
    public func cancel() { completion.cancel() }

    public static func == (left: TranscriptRevision, right: TranscriptRevision) -> Bool { left === right }
}
