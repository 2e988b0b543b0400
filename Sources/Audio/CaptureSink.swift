import Recording
import Synchronization

/// Where the PulseAudio thread delivers what it produces (samples, the outcome of the
/// operation being awaited, losses), and where the capture picks it up from any thread.
///
/// libpulse callbacks reach it through an unretained pointer; `PulseSession` keeps it alive
/// until the main loop thread has stopped.
final class CaptureSink: Sendable {
    typealias Operation = CheckedContinuation<Result<Void, PulseError>, Never>

    private struct ActiveRecording: ~Copyable {
        var file: RecordingFile?
        var id: RecordingID?
        var meter = LevelMeter()
        /// A stream feeds this recording, so losing it is news worth an event.
        var isWatched = false
        /// Set after a failed write, so the failure is reported once and the rest dropped until a resume.
        var cannotWrite = false
    }

    private let events: AsyncStream<CaptureEvent>.Continuation
    /// Other applications' call streams, followed on the PulseAudio thread.
    private let calls = CallStreams()
    private let listener: (any CapturedAudioListener)?
    private let recording = Mutex(ActiveRecording())
    private let operation = Mutex<Operation?>(nil)
    /// Separate from `recording` so that reading the level never waits for an fdatasync.
    private let currentLevel = Mutex(LevelMeter.silence)
    /// Set by the recorder's transitions (`Capturing.holdAudio`): samples arriving meanwhile are dropped.
    private let held = Atomic<Bool>(false)

    init(events: AsyncStream<CaptureEvent>.Continuation, listener: (any CapturedAudioListener)?) {
        self.events = events
        self.listener = listener
    }

    deinit {
        events.finish()
        // The capture went away mid-recording: keep what was recorded.
        if let file = recording.withLock({ $0.file.take() }) {
            _ = try? file.finish()
        }
    }

    var level: Double { currentLevel.withLock { $0 } }

    var isRecording: Bool { recording.withLock { $0.file != nil } }

    func begin(_ file: consuming RecordingFile, of id: RecordingID) {
        var incoming = Optional(file)
        recording.withLock { $0 = ActiveRecording(file: incoming.take(), id: id) }
        listener?.captureStarted(id)
    }

    /// Ends the recording: its file is the caller's to finish, its samples are all delivered.
    func takeFile() -> RecordingFile? {
        recording.withLock { $0.file.take() }
    }

    /// Ends the recording and deletes its file. A recording whose file was already taken (stopped
    /// and handed on) is not this capture's to drop: its memo owns the file now.
    func dropFile() {
        let id = recording.withLock { active -> RecordingID? in
            guard let file = active.file.take() else { return nil }
            file.discard()
            return active.id
        }
        if let id { listener?.captureDropped(id) }
    }

    // MARK: Awaiting libpulse operations

    /// Parks the caller until `complete(_:)` runs: on the pa thread, or inline when starting the operation failed.
    func awaitOperation(_ continuation: Operation) {
        let superseded = operation.withLock { pending in
            defer { pending = continuation }
            return pending
        }
        superseded?.resume(returning: .failure(.badState))
    }

    /// Resumes the awaited operation; later outcomes of the same operation (a timeout after success) are ignored.
    func complete(_ result: Result<Void, PulseError>) {
        operation.withLock { $0.take() }?.resume(returning: result)
    }

    // MARK: Stream life

    func streamReady() {
        recording.withLock { $0.isWatched = true }
        complete(.success(()))
    }

    /// The stream is being closed on purpose: whatever happens to it or to the server next is no loss.
    func unwatch() {
        recording.withLock { $0.isWatched = false }
        silence()
    }

    /// The context or stream failed: fails the awaited operation, and reports the loss if a recording depended on it.
    func fail(_ error: PulseError, lost message: String) {
        complete(.failure(error))
        let wasWatched = recording.withLock { active in
            defer { active.isWatched = false }
            return active.isWatched
        }
        if wasWatched {
            silence()
            // Valid on disk now, not at the next second of audio: none may come for a long time.
            recording.withLock { _ = try? $0.file?.checkpoint() }
            events.yield(.lost(message: message))
        }
    }

    /// The server moved the stream to `source`; news only while a recording depends on it.
    func moved(to source: String) {
        if recording.withLock({ $0.isWatched }) { events.yield(.moved(source: source)) }
    }

    /// Writing may be tried again (the user resumes after freeing room).
    func resumeWriting() {
        recording.withLock { $0.cannotWrite = false }
    }

    // MARK: Other applications' streams (pa thread)

    /// Notes whether another application's stream is part of a call; `announce` reports the first
    /// call stream's arrival and the last one's departure (the streams found at connection are not news).
    func callStream(_ stream: CallStreams.Stream, isCall: Bool, announce: Bool) {
        guard let change = calls.note(stream, isCall: isCall), announce else { return }
        events.yield(change == .started ? .callStarted : .callEnded)
    }

    /// The server went away with every stream on it: no call to end, the lost input is the news.
    func forgetStreams() { calls.forgetAll() }

    /// Nothing is being captured (paused, stopped or lost): the meter starts over.
    func silence() {
        recording.withLock { $0.meter.reset() }
        currentLevel.withLock { $0 = LevelMeter.silence }
    }

    // MARK: Samples (pa thread)

    func hold(_ isHeld: Bool) { held.store(isHeld, ordering: .relaxed) }

    func receive(_ samples: UnsafeRawBufferPointer) {
        guard !held.load(ordering: .relaxed) else { return }
        let outcome: Result<(Double, RecordingID?), FileError>? = recording.withLock { active in
            guard active.file != nil, !active.cannotWrite else { return nil }
            do throws(FileError) {
                try active.file!.append(samples)
            } catch {
                active.cannotWrite = true
                return .failure(error)
            }
            active.meter.add(samples)
            return .success((active.meter.dBFS, active.id))
        }
        switch outcome {
        case .success(let (level, id)):
            currentLevel.withLock { $0 = level }
            if let id { listener?.captured(samples, of: id) }
        case .failure(let error) where error.isOutOfSpace:
            silence()
            events.yield(
                .outOfSpace(message: "\(error.message). The audio so far is kept; free some space, then Resume, or Send it as it is."))
        case .failure(let error):
            silence()
            events.yield(.lost(message: "\(error.message). The audio so far is kept."))
        case nil:
            break
        }
    }
}
