import Recording

/// What the recogniser made of a recording's audio while it was captured.
public enum HeardSpeech: Sendable, Equatable {
    /// Its current guess at the utterance being spoken.
    case partial(String)
    /// An utterance that ended: its text and words with their timings in the recording.
    case final(Transcript)
    /// Told before any utterance: each utterance that ends will be written again by the Whisper model `model`.
    case accuratePass(model: String)
    /// Whisper's text of the recording's `utterance`th (from 0) final utterance with words, when it is ready, in
    /// spoken order; an utterance Whisper could not decode keeps Vosk's text and gets none.
    case revised(utterance: Int, Transcript)
}

/// Where a live decoding tells what it hears; called on the transcription queue.
public struct LiveHearing {
    /// Whether guesses are wanted now: computing one costs a little decoding, spent only for a listener.
    let wantsPartials: () -> Bool
    let heard: (HeardSpeech) -> Void

    public init(wantsPartials: @escaping () -> Bool, heard: @escaping (HeardSpeech) -> Void) {
        self.wantsPartials = wantsPartials
        self.heard = heard
    }
}

/// Follows the text of recordings while they are captured: the live text a client asked for.
public protocol LiveTextListener: Sendable {
    /// Whether anybody follows the text now.
    var isFollowed: Bool { get }
    func heard(_ speech: HeardSpeech, of recording: RecordingID)
    /// Nothing more of `recording` comes: it was sent (after its last utterance), discarded, or continued as another.
    func ended(_ recording: RecordingID)
}
