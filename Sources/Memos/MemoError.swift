import Library
import Recording

/// Why the memo service refused a request or could not do it, as the user is told.
public enum MemoError: Error, Sendable, Equatable, CustomStringConvertible {
    /// No memo has this id.
    case noSuchMemo(String)
    /// The search text is not a query (an unbalanced quote, a dangling operator).
    case badSearchQuery(String)
    /// A title must say something.
    case emptyTitle
    /// The memo is the recording in progress: Discard throws it away, Delete does not.
    case recordingInProgress(String)
    /// The memo is still being recorded: nothing to play, no text yet.
    case stillRecording
    /// The memo is being transcribed: its text comes when its status becomes done.
    case stillTranscribing
    /// The memo's transcription failed, and why.
    case transcriptionFailed(RecordingError)
    /// The memo is not the one playing: nothing to pause, resume or seek.
    case notPlaying(String)
    /// The sound server did not take the playback's hold in time: it goes on.
    case notHeld(String)
    /// The memo's audio file is no longer there.
    case audioGone(memo: String, file: String)
    /// A file of the memo could not be deleted.
    case cannotDelete(file: String, reason: String)
    /// The store failed (a full disk, a corrupt file).
    case libraryFailed(LibraryError)

    init(_ error: LibraryError) {
        switch error {
        case .noSuchMemo(let id): self = .noSuchMemo(id)
        case .badSearchQuery(let message): self = .badSearchQuery(message)
        case .storage: self = .libraryFailed(error)
        }
    }

    public var message: String {
        switch self {
        case .noSuchMemo(let id): "No memo \(id)"
        case .badSearchQuery(let message): "Not a search query: \(message)"
        case .emptyTitle: "A title cannot be empty"
        case .recordingInProgress(let id): "Memo \(id) is the recording in progress: Discard throws it away"
        case .stillRecording: "The memo is still being recorded"
        case .stillTranscribing: "The memo is still being transcribed; its Status becomes done when the text is ready"
        case .transcriptionFailed(let failure): failure.message
        case .notPlaying(let id): "Memo \(id) is not playing: Play it first"
        case .notHeld(let id): "The sound server did not hold the playback of memo \(id) in time: it goes on"
        case .audioGone(let memo, let file): "The audio of memo \(memo) is gone: \(file)"
        case .cannotDelete(let file, let reason): "Cannot delete \(file): \(reason)"
        case .libraryFailed(let error): "The memo library failed: \(error)"
        }
    }

    public var description: String { message }
}
