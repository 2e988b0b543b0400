import Library
import Recording

/// A memo's text as transcription gives it: the recognised words, their timings, the text as written, and the model
/// that decoded it.
public struct MemoText: Sendable, Equatable {
    public var text: String
    public var words: [Word]
    public var written: String
    public var model: String

    public init(text: String, words: [Word], written: String, model: String) {
        self.text = text
        self.words = words
        self.written = written
        self.model = model
    }
}

extension Memo {
    /// Takes `text` as its own, and a title from its first words unless the user named it (a title from its old
    /// text is replaced).
    mutating func take(_ text: MemoText) {
        takeTitle(from: text.written, replacing: written)
        transcript = text.text
        words = text.words
        written = text.written
        model = text.model
    }
}
