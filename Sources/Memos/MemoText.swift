import Library
import Recording

/// A memo's text as transcription gives it: the recognised words, their timings, the text as written, and the model
/// that decoded it.
public struct MemoText: Sendable, Equatable {
    public var text: String
    public var words: [Word]
    public var written: String
    public var model: String
    /// Which model wrote each utterance, where they differ; empty when `model` wrote it all.
    public var utteranceModels: [UtteranceModel]
    /// The text still to come for some utterances (the accurate pass fell behind), which replaces this one.
    public var revision: MemoRevision?

    public init(
        text: String, words: [Word], written: String, model: String, utteranceModels: [UtteranceModel] = [],
        revision: MemoRevision? = nil
    ) {
        self.text = text
        self.words = words
        self.written = written
        self.model = model
        self.utteranceModels = utteranceModels
        self.revision = revision
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
        utteranceModels = text.utteranceModels
    }
}

/// A memo's text still being completed: which utterances are pending, and the text once they are done.
public struct MemoRevision: Sendable, Equatable {
    public let pending: [Int]
    public let completed: @Sendable () async -> MemoText
    public let cancel: @Sendable () -> Void

    public init(pending: [Int], completed: @escaping @Sendable () async -> MemoText, cancel: @escaping @Sendable () -> Void) {
        self.pending = pending
        self.completed = completed
        self.cancel = cancel
    }

    /// Two revisions are told apart by what is pending alone: a memo has one at a time.
    public static func == (left: MemoRevision, right: MemoRevision) -> Bool { left.pending == right.pending }
}
