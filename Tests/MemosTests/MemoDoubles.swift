import Dispatch
import Memos
import Recording
import Synchronization

/// A call the memo service made through its seams.
enum SeamCall: Sendable, Equatable {
    case locale(RecordingID)
    case settled(String)
    case text(RecordingID, file: String, locale: String?)
    case again(file: String, locale: String, model: String)
}

/// Transcription that answers with a text given beforehand, or waits until the task is cancelled (a
/// recording discarded while it is transcribed).
struct TranscriberDouble: Transcribing {
    enum Outcome: Sendable {
        case text(String, [Word])
        case untilCancelled
    }
    let calls: Recorded<SeamCall>
    let locale: String
    let outcome: Outcome
    /// What a memo transcribed again gets: a text, or a failure saying why.
    var again: Result<String, RecordingError> = .success("goedemorgen wereld")

    /// The written text the double makes of `text`: told apart from the recognised words.
    static func written(_ text: String) -> String { text.isEmpty ? "" : text.uppercased() + "." }

    func locale(of recording: RecordingID) -> String {
        calls.append(.locale(recording))
        return locale
    }

    func text(of recording: RecordingID, file: String, in locale: String?) async throws(RecordingError) -> MemoText {
        calls.append(.text(recording, file: file, locale: locale))
        switch outcome {
        case .text(let text, let words): return MemoText(text: text, words: words, written: Self.written(text), model: "double")
        case .untilCancelled:
            await CancellationGate().wait()
            throw .failed("The recording was discarded.")
        }
    }

    func text(ofFile file: String, in locale: String, model: String) async throws(RecordingError) -> MemoText {
        calls.append(.again(file: file, locale: locale, model: model))
        let text = try again.get()
        return MemoText(text: text, words: [], written: Self.written(text), model: model)
    }
}

/// Models that are never being installed: the wait ends at once.
struct ModelsDouble: ModelWaiting {
    let calls: Recorded<SeamCall>
    func settled(_ locale: String) async { calls.append(.settled(locale)) }
}

/// Hears the library's events.
struct ListenerDouble: MemoListener {
    let events: Recorded<MemoEvent>
    func libraryChanged(_ event: MemoEvent) { events.append(event) }
}

/// Returns from `wait` once the task waiting is cancelled.
private final class CancellationGate: Sendable {
    private let state = Mutex<(cancelled: Bool, waiting: CheckedContinuation<Void, Never>?)>((false, nil))

    func wait() async {
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let cancelled = state.withLock { state in
                    if !state.cancelled { state.waiting = continuation }
                    return state.cancelled
                }
                if cancelled { continuation.resume() }
            }
        } onCancel: {
            state.withLock { state in
                state.cancelled = true
                defer { state.waiting = nil }
                return state.waiting
            }?.resume()
        }
    }
}

/// A serial executor on a queue of its own: the library runs on the executor it is given, the bus's in notulad.
final class QueueExecutor: SerialExecutor {
    private let queue = DispatchQueue(label: "org.notula.memos-tests")

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        queue.async { job.runSynchronously(on: self.asUnownedSerialExecutor()) }
    }
}
