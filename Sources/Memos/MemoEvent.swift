import Library

/// A change of the memos, as the library tells it: the bus adapter turns each into its signal.
public enum MemoEvent: Sendable, Equatable {
    /// A recording started and its row now exists.
    case added(Memo)
    /// The memo's title, or its status and duration, changed.
    case changed(String, MemoChange)
    /// The memo is gone: deleted, or its recording discarded.
    case removed(String)
    /// How many memos there are now.
    case countChanged(Int)
    /// The memo playing now; nil when none is.
    case playingChanged(String?)
}

/// What of a memo changed.
public enum MemoChange: Sendable, Equatable {
    /// The user renamed it.
    case title
    /// Its status (and with it its duration) moved on: transcribing, done, failed, recovered.
    case progress
    /// It has its text, and with it a title from its first words unless the user named it.
    case transcribed
}

/// Hears the library's changes synchronously, on its executor, in the order they happen: so that a
/// signal goes out before the reply of the call that caused it.
public protocol MemoListener: Sendable {
    func libraryChanged(_ event: MemoEvent)
}
