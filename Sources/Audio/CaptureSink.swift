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
        /// Samples past the length limit, waiting for the file of the recording they continue as.
        var overflow: [UInt8] = []
        /// The limit was reported; set again by a resume, after a split that found no room.
        var limitReported = false
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

    /// The most sample bytes a recording's file takes: a whole number of samples.
    private let lengthLimit: UInt64

    init(events: AsyncStream<CaptureEvent>.Continuation, listener: (any CapturedAudioListener)?, lengthLimit: UInt64) {
        self.events = events
        self.listener = listener
        self.lengthLimit = lengthLimit - lengthLimit % UInt64(RecordingFormat.bytesPerSample)
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
    /// Samples past the length limit, a few milliseconds at most, go with it.
    func takeFile() -> RecordingFile? {
        recording.withLock { active in
            active.overflow = []
            return active.file.take()
        }
    }

    /// Puts `next` in the place of the recording's file, which is returned for the caller to finish,
    /// and writes the samples that waited for it first. Nil, with `next` discarded, when not recording.
    func continueRecording(in next: consuming RecordingFile, as id: RecordingID) -> RecordingFile? {
        var incoming = Optional(next)
        var failure: FileError?
        var fullAgain = false
        let first = recording.withLock { active -> RecordingFile? in
            guard let previous = active.id, active.file != nil else { return nil }
            let first = active.file.take()
            active.file = incoming.take()
            active.id = id
            // More waiting than a file holds (a split that came late after a short limit) fills this one too.
            let fitting = Int(min(UInt64(active.overflow.count), lengthLimit))
            let waiting = Array(active.overflow[..<fitting])
            active.overflow.removeFirst(fitting)
            fullAgain = !active.overflow.isEmpty
            active.limitReported = fullAgain
            // In the lock, so that the listener hears of the new recording before any of its samples.
            listener?.captureContinued(previous, as: id)
            failure = waiting.withUnsafeBytes { samples in
                let failure = write(samples, to: &active)
                if failure == nil, !samples.isEmpty { listener?.captured(samples, of: id) }
                return failure
            }
            return first
        }
        incoming.take()?.discard()
        if let failure { report(failure) }
        if fullAgain { events.yield(.lengthLimitReached(id)) }
        return first
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

    /// Writing may be tried again (the user resumes after freeing room), and a limit reached reported again.
    func resumeWriting() {
        recording.withLock {
            $0.cannotWrite = false
            $0.limitReported = false
        }
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
        var limitReached: RecordingID?
        let outcome: Result<(Double, RecordingID?, Int), FileError>? = recording.withLock { active in
            guard let written = active.file?.dataBytes, !active.cannotWrite else { return nil }
            let fitting = Int(min(UInt64(samples.count), lengthLimit - min(written, lengthLimit)))
            if fitting < samples.count {
                active.overflow.append(contentsOf: samples[fitting...])
                if !active.limitReported {
                    active.limitReported = true
                    limitReached = active.id
                }
            }
            if let failure = write(UnsafeRawBufferPointer(rebasing: samples[..<fitting]), to: &active) {
                return .failure(failure)
            }
            active.meter.add(samples)
            return .success((active.meter.dBFS, active.id, fitting))
        }
        switch outcome {
        case .success(let (level, id, fitting)):
            currentLevel.withLock { $0 = level }
            if let id, fitting > 0 { listener?.captured(UnsafeRawBufferPointer(rebasing: samples[..<fitting]), of: id) }
        case .failure(let error):
            report(error)
        case nil:
            break
        }
        // After the listener has every sample of the full file: the split that follows starts the next.
        if let limitReached { events.yield(.lengthLimitReached(limitReached)) }
    }

    /// Appends to the recording's file; a failure is returned once, and the samples after it dropped until a resume.
    private func write(_ samples: UnsafeRawBufferPointer, to active: inout ActiveRecording) -> FileError? {
        guard !samples.isEmpty, active.file != nil, !active.cannotWrite else { return nil }
        do throws(FileError) {
            try active.file!.append(samples)
            return nil
        } catch {
            active.cannotWrite = true
            return error
        }
    }

    private func report(_ error: FileError) {
        silence()
        if error.isOutOfSpace {
            events.yield(
                .outOfSpace(message: "\(error.message). The audio so far is kept; free some space, then Resume, or Send it as it is."))
        } else {
            events.yield(.lost(message: "\(error.message). The audio so far is kept."))
        }
    }
}
