import Recording

/// What was said in a recording: its text, and each word with its timing.
public struct Transcript: Sendable, Equatable {
    /// The utterances' texts joined with single spaces; empty when nothing was recognised.
    public var text: String
    /// Every recognised word, in order.
    public var words: [Word]
    /// The name of the model that decoded it: `vosk-model-small-ko-0.22`; empty until known.
    public var model: String
    /// Which model wrote each utterance, where an accurate pass wrote some: empty when `model` wrote it all.
    public var utteranceModels: [UtteranceModel] = []
    /// Whisper's text of the utterances it had not written by Send, still coming; nil when none is.
    public var revision: TranscriptRevision?
    /// The language an utterance was written in (Whisper's code), where the engine chose it among several; nil else.
    public var language: String?

    public init(text: String = "", words: [Word] = [], model: String = "") {
        self.text = text
        self.words = words
        self.model = model
    }

    /// Words alone, the text theirs joined with spaces.
    init(words: [Word]) {
        self.init(text: words.map(\.word).joined(separator: " "), words: words)
    }

    /// Adds the next utterance at the end; an empty one changes nothing.
    mutating func append(_ utterance: Transcript) {
        if !utterance.text.isEmpty {
            text = text.isEmpty ? utterance.text : text + " " + utterance.text
        }
        words += utterance.words
    }

    /// The same words `seconds` later: an utterance's, timed from its own start, placed in its recording.
    func shifted(by seconds: Double) -> Transcript {
        var moved = self
        moved.words = words.map { Word(start: $0.start + seconds, end: $0.end + seconds, word: $0.word, confidence: $0.confidence) }
        return moved
    }
}
