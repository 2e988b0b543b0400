import Dispatch
import Recording
import Synchronization

/// Where the PulseAudio thread delivers what it produces (samples, the outcome of the
/// operation being awaited, losses), and where the capture picks it up from any thread.
///
/// The samples go to the file and the listener on a queue of their own, in the order they came:
/// the PulseAudio thread holds the main loop's lock, which Pause and Resume need, and must never
/// wait for a write or an fdatasync.
///
/// libpulse callbacks reach it through an unretained pointer; `PulseSession` keeps it alive
/// until the main loop thread has stopped.
final class CaptureSink: Sendable {
    typealias Operation = CheckedContinuation<Result<Void, PulseError>, Never>

    /// What the PulseAudio thread decides for each delivery; never locked for longer than a copy.
    private struct ActiveRecording {
        var id: RecordingID?
        /// Sample bytes of this recording's file, written or on their way: the length limit counts them.
        var accepted: UInt64 = 0
        var meter = LevelMeter()
        /// A stream feeds this recording, so losing it is news worth an event.
        var isWatched = false
        /// Samples past the length limit, waiting for the file of the recording they continue as.
        var overflow: [UInt8] = []
        /// The limit was reported; set again by a resume, after a split that found no room.
        var limitReported = false
        /// The disk took nothing for as long as the patience; cleared by a resume.
        var diskStalled = false
    }

    /// The recording's file, touched only by the writer queue (and by the capture once that queue is empty).
    fileprivate struct Output: ~Copyable {
        var file: RecordingFile?
        /// Set after a failed write, so the failure is reported once and the rest dropped until a resume.
        var cannotWrite = false
    }

    private let events: AsyncStream<CaptureEvent>.Continuation
    /// Other applications' call streams, followed on the PulseAudio thread.
    private let calls = CallStreams()
    private let listener: (any CapturedAudioListener)?
    /// Whether a record stream of ours exists on the server, and who hears it change.
    private let inputOpen = Mutex(false)
    private let inputChanged: (@Sendable (Bool) -> Void)?
    private let recording = Mutex(ActiveRecording())
    private let output = Mutex(Output())
    /// Writes the samples and hands them to the listener, in the order they came.
    private let writer = DispatchQueue(label: "org.notula.capture-writer")
    private let operation = Mutex<Operation?>(nil)
    private let currentLevel = Mutex(LevelMeter.silence)
    /// Set by the recorder's transitions (`Capturing.holdAudio`): samples arriving meanwhile are dropped.
    private let held = Atomic<Bool>(false)
    /// When the audio was let through, until its first samples are queued for the file (`audioArrived`).
    private let awaitingAudioSince = Mutex<Duration?>(nil)
    /// Reads the time the audio is let through and the time its first samples came.
    private let clock: any MonotonicClock

    /// The most sample bytes a recording's file takes: a whole number of samples.
    private let lengthLimit: UInt64

    /// Sample bytes handed to the writer and not written yet.
    private let unwritten = Atomic<Int>(0)
    /// The most bytes that wait for a stalled disk: past them the recording is stopped as lost.
    private let mostUnwritten: Int

    init(
        events: AsyncStream<CaptureEvent>.Continuation, listener: (any CapturedAudioListener)?, inputChanged: (@Sendable (Bool) -> Void)?,
        lengthLimit: UInt64, mostUnwritten: Int, clock: any MonotonicClock = MonotonicSystemClock()
    ) {
        self.events = events
        self.clock = clock
        self.listener = listener
        self.inputChanged = inputChanged
        self.mostUnwritten = mostUnwritten
        self.lengthLimit = lengthLimit - lengthLimit % UInt64(RecordingFormat.bytesPerSample)
    }

    deinit {
        events.finish()
        // The capture went away mid-recording: keep what was recorded. (The writer's work holds the sink: it is done.)
        if let file = output.withLock({ $0.file.take() }) {
            _ = try? file.finish()
        }
    }

    var level: Double { currentLevel.withLock { $0 } }

    var isRecording: Bool { recording.withLock { $0.id != nil } }

    func begin(_ file: consuming RecordingFile, of id: RecordingID, locale: String) {
        var incoming = Optional(file)
        // What the writer still has of an earlier recording goes to that one's file, not this one's.
        writer.sync {}
        output.withLock { $0 = Output(file: incoming.take()) }
        recording.withLock { $0 = ActiveRecording(id: id) }
        listener?.captureStarted(id, locale: locale)
    }

    /// Ends the recording: its file is the caller's to finish, its samples are all written and delivered.
    /// Samples past the length limit, a few milliseconds at most, go with it.
    func takeFile() -> RecordingFile? {
        let id = recording.withLock { active -> RecordingID? in
            defer { active = ActiveRecording() }
            return active.id
        }
        writer.sync {}
        let file = output.withLock { $0.file.take() }
        if let id { listener?.captureEnded(id) }
        return file
    }

    /// Puts `next` in the place of the recording's file, which is returned for the caller to finish
    /// once the samples before it are written, and writes the samples that waited for it first.
    /// Nil, with `next` discarded, when not recording.
    func continueRecording(in next: consuming RecordingFile, as id: RecordingID) -> RecordingFile? {
        let handover = FileHandover(next)
        let switched = recording.withLock { active -> Bool in
            guard let previous = active.id else { return false }
            active.id = id
            // More waiting than a file holds (a split that came late after a short limit) fills this one too.
            let fitting = Int(min(UInt64(active.overflow.count), lengthLimit))
            let waiting = Array(active.overflow[..<fitting])
            active.overflow.removeFirst(fitting)
            active.accepted = UInt64(fitting)
            let fullAgain = !active.overflow.isEmpty
            active.limitReported = fullAgain
            // Queued in the lock, after every sample of the previous file and before any of the next.
            writer.async { [self] in
                handover.swap(with: output)
                listener?.captureContinued(previous, as: id)
            }
            queue(waiting, of: id)
            if fullAgain { writer.async { [self] in events.yield(.lengthLimitReached(id)) } }
            return true
        }
        guard switched else {
            handover.take()?.discard()
            return nil
        }
        writer.sync {}
        return handover.take()
    }

    /// Ends the recording and deletes its file. A recording whose file was already taken (stopped
    /// and handed on) is not this capture's to drop: its memo owns the file now.
    func dropFile() {
        let id = recording.withLock { active -> RecordingID? in
            defer { active = ActiveRecording() }
            return active.id
        }
        guard let id else { return }
        writer.sync {}
        output.withLock { $0.file.take() }?.discard()
        listener?.captureDropped(id)
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
        setInputOpen(true)
        complete(.success(()))
    }

    var isInputOpen: Bool { inputOpen.withLock { $0 } }

    /// The stream is there (ready), or gone from the server (released, failed, or the connection lost).
    func setInputOpen(_ open: Bool) {
        let changed = inputOpen.withLock { current in
            defer { current = open }
            return current != open
        }
        if changed { inputChanged?(open) }
    }

    /// The stream is being closed on purpose: whatever happens to it or to the server next is no loss.
    func unwatch() {
        recording.withLock { $0.isWatched = false }
        silence()
    }

    /// The context or stream failed: fails the awaited operation, and reports the loss if a recording depended on it.
    func fail(_ error: PulseError, lost message: String) {
        complete(.failure(error))
        setInputOpen(false)
        let wasWatched = recording.withLock { active in
            defer { active.isWatched = false }
            return active.isWatched
        }
        if wasWatched {
            silence()
            // Valid on disk once what came before is written, not at the next second of audio: none may come for a long time.
            writer.async { [self] in output.withLock { _ = try? $0.file?.checkpoint() } }
            events.yield(.lost(message: message))
        }
    }

    /// The server moved the stream to `source`; news only while a recording depends on it.
    func moved(to source: String) {
        if recording.withLock({ $0.isWatched }) { events.yield(.moved(source: source)) }
    }

    /// Writing may be tried again (the user resumes after freeing room), and a limit reached reported again.
    /// Samples that came before the resume and waited for the writer are still dropped.
    func resumeWriting() {
        recording.withLock {
            $0.limitReported = false
            $0.diskStalled = false
        }
        writer.async { [self] in output.withLock { $0.cannotWrite = false } }
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

    func hold(_ isHeld: Bool) {
        if !isHeld, held.load(ordering: .relaxed) { awaitingAudioSince.withLock { $0 = clock.now() } }
        held.store(isHeld, ordering: .relaxed)
    }

    /// Takes what fits the file and hands it to the writer; what does not waits for a split.
    /// `followedBy`: the bytes read with these that come after them, by which they are older than their arrival.
    func receive(_ delivered: UnsafeRawBufferPointer, followedBy: Int) {
        guard !held.load(ordering: .relaxed) else { return }
        var samples = delivered
        var firstSampleTime: Duration?
        if let letThrough = awaitingAudioSince.withLock({ $0 }) {
            let first = firstAudio(of: delivered, followedBy: followedBy, since: letThrough)
            samples = UnsafeRawBufferPointer(rebasing: delivered[first.offset...])
            guard !samples.isEmpty else { return }
            firstSampleTime = first.time
        }
        var stalled = false
        let level = recording.withLock { active -> Double? in
            guard let id = active.id else { return nil }
            let fitting = Int(min(UInt64(samples.count), lengthLimit - min(active.accepted, lengthLimit)))
            var limitReached = false
            if fitting < samples.count {
                active.overflow.append(contentsOf: samples[fitting...])
                limitReached = !active.limitReported
                active.limitReported = true
            }
            active.meter.add(samples)
            if fitting > 0, active.diskStalled || unwritten.load(ordering: .relaxed) + fitting > mostUnwritten {
                // The disk took nothing for as long as the patience: the rest is dropped until a resume.
                stalled = !active.diskStalled
                active.diskStalled = true
            } else if fitting > 0 {
                active.accepted += UInt64(fitting)
                // Queued in the lock, so that a split queues its switch between the same samples it counted.
                queue(Array(samples[..<fitting]), of: id)
                if let firstSampleTime, awaitingAudioSince.withLock({ $0.take() }) != nil {
                    events.yield(.audioArrived(at: firstSampleTime))
                }
            }
            // After the listener has every sample of the full file: the split that follows starts the next.
            if limitReached { writer.async { [self] in events.yield(.lengthLimitReached(id)) } }
            return active.meter.dBFS
        }
        if let level { currentLevel.withLock { $0 = level } }
        if stalled {
            silence()
            let seconds = mostUnwritten / RecordingFormat.bytesPerSecond
            events.yield(.lost(message: "The disk has taken none of the audio for \(seconds) s. The audio so far is kept."))
        }
    }

    /// Where the audio let through at `letThrough` begins in what one read delivered, and when that sample came.
    ///
    /// A read holds audio captured over its length, ending with the audio read after it: the first after a start can
    /// carry seconds the server held back (a first start on a busy machine), which the timer, started at the first
    /// sample, would not count. What predates the let-through is held back, as what came while held is.
    private func firstAudio(of samples: UnsafeRawBufferPointer, followedBy: Int, since letThrough: Duration)
        -> (offset: Int, time: Duration)
    {
        let bytesPerSecond = Int64(RecordingFormat.bytesPerSecond)
        let ends = clock.now() - .microseconds(Int64(followedBy) * 1_000_000 / bytesPerSecond)
        let begins = ends - .microseconds(Int64(samples.count) * 1_000_000 / bytesPerSecond)
        guard begins < letThrough else { return (0, begins) }
        let early = Int((letThrough - begins).microseconds * bytesPerSecond / 1_000_000)
        let sample = RecordingFormat.bytesPerSample
        let offset = min((early + sample - 1) / sample * sample, samples.count)
        return (offset, letThrough)
    }

    /// Hands samples to the writer, counting them until they are written.
    private func queue(_ samples: [UInt8], of id: RecordingID) {
        unwritten.add(samples.count, ordering: .relaxed)
        writer.async { [self] in write(samples, of: id) }
    }

    /// Appends to the recording's file and hands the samples to the listener (writer queue). A failure
    /// is reported once, and the samples after it dropped until a resume, uncounted.
    private func write(_ samples: [UInt8], of id: RecordingID) {
        defer { unwritten.subtract(samples.count, ordering: .relaxed) }
        guard !samples.isEmpty else { return }
        let outcome = samples.withUnsafeBytes { bytes in
            output.withLock { output -> Result<Bool, FileError> in
                guard output.file != nil, !output.cannotWrite else { return .success(false) }
                do throws(FileError) {
                    try output.file!.append(bytes)
                    return .success(true)
                } catch {
                    output.cannotWrite = true
                    return .failure(error)
                }
            }
        }
        switch outcome {
        case .success(true):
            samples.withUnsafeBytes { listener?.captured($0, of: id) }
        case .success(false):
            uncount(samples.count, of: id)
        case .failure(let error):
            uncount(samples.count, of: id)
            report(error)
        }
    }

    /// Samples that did not reach the file leave room in it for later ones.
    private func uncount(_ bytes: Int, of id: RecordingID) {
        recording.withLock { active in
            if active.id == id { active.accepted -= min(active.accepted, UInt64(bytes)) }
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

/// Moves a file into the writer's hands and the previous one out, across the queue.
private final class FileHandover: Sendable {
    private let slot: Mutex<RecordingFile?>

    init(_ file: consuming RecordingFile) { slot = Mutex(Optional(file)) }

    /// Puts the file held here in `output`, and holds the one that was there.
    func swap(with output: borrowing Mutex<CaptureSink.Output>) {
        slot.withLock { held in
            output.withLock { output in
                let previous = output.file.take()
                output.file = held.take()
                held = previous
            }
        }
    }

    func take() -> RecordingFile? { slot.withLock { $0.take() } }
}
