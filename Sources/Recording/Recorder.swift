/// The recording flow: idle → recording ⇄ paused → processing → idle.
///
/// Every transition is a synchronous function that changes the state at once and owns its
/// effects: the timer, the capture steps (queued in transition order, see `CaptureChain`), and
/// the report. The bus methods and every other control reach them through one door, `perform(_:for:)`.
///
/// The recorder runs on the executor of `isolation`, so that the bus, sharing it, calls the
/// transitions in the order calls arrive, with no hop in between.
public actor Recorder {
    private let isolation: any Actor
    public nonisolated var unownedExecutor: UnownedSerialExecutor { isolation.unownedExecutor }

    public internal(set) var state: RecordingState = .idle
    /// Why the recording is paused; nil unless paused.
    public internal(set) var pauseReason: PauseReason?
    /// The recording in progress (from the start until it is processed or discarded).
    public internal(set) var recording: RecordingID?
    /// The locale the recording in progress is transcribed in: the one picked when it started.
    public internal(set) var locale: String?
    var timer = RecordingTimer()
    /// The capture lets the audio through, since the input opened and until a pause or the end.
    var audioLetThrough = false
    /// When the audio was last let through: no sample in the file is older.
    private var letThroughAt: Duration = .zero

    let clock: any MonotonicClock
    let capture: any Capturing
    let processing: any Processing
    let reporter: any Reporting
    let makeRecordingID: @Sendable () -> RecordingID
    /// The locale the user picked, which a recording that starts now is transcribed in.
    let pickedLocale: @Sendable () -> String
    /// Awaited between the input's opening and the audio let through: the cue that says "speak now",
    /// so that its sound never reaches the file, and a caller of Start hears the answer once it played.
    let cueBeforeSpeech: @Sendable () async -> Void
    let steps: AsyncStream<CaptureStep>.Continuation
    /// Recordings discarded, or whose capture never started: their remaining steps only clean up.
    var abandoned: Set<RecordingID> = []
    /// The recordings begun whose start step the chain has not passed yet, oldest first: the
    /// chain lags behind the transitions, so a recording may be begun and discarded before the
    /// steps of an earlier one have run.
    var awaitingStart: [RecordingID] = []
    /// The memos being processed; more than one while a discarded one winds down.
    var processingTasks: [RecordingID: Task<Result<Void, RecordingError>, Never>] = [:]
    /// The recordings whose stop step has not released the input yet, and who waits for each.
    var stopping: Set<RecordingID> = []
    var releaseWaits: [RecordingID: [CheckedContinuation<InputRelease, Never>]] = [:]
    /// The release done last, which a Stop after it answers with.
    var lastRelease: (recording: RecordingID, outcome: InputRelease)?

    public init(
        isolation: any Actor, clock: any MonotonicClock, capture: any Capturing, processing: any Processing,
        reporter: any Reporting, makeRecordingID: @escaping @Sendable () -> RecordingID,
        pickedLocale: @escaping @Sendable () -> String, cueBeforeSpeech: @escaping @Sendable () async -> Void = {}
    ) {
        self.isolation = isolation
        self.clock = clock
        self.capture = capture
        self.processing = processing
        self.reporter = reporter
        self.makeRecordingID = makeRecordingID
        self.pickedLocale = pickedLocale
        self.cueBeforeSpeech = cueBeforeSpeech
        let (stream, continuation) = AsyncStream.makeStream(of: CaptureStep.self)
        steps = continuation
        Task { await self.runCaptureChain(stream) }
        Task { await self.followCaptureEvents() }
    }

    /// The flow as of now.
    public var snapshot: RecorderSnapshot {
        RecorderSnapshot(
            state: state, elapsed: timer.elapsed(at: clock.now()), timerAnchor: state == .recording ? timer.anchor : nil,
            recording: recording, pauseReason: state == .paused ? pauseReason : nil)
    }

    /// Input level of the last ~100 ms in dBFS, −160 when silent or not recording.
    public nonisolated var level: Double { capture.level }

    // MARK: Transitions

    /// Starts, pauses or resumes, whichever the state calls for.
    func toggle(for caller: CommandCaller) throws(RecordingError) -> Confirmation {
        switch state {
        case .idle:
            try checkSpace()
            return beginRecording(for: caller)
        case .recording: pauseRecording(because: .user)
        case .paused:
            try checkSpace()
            return resumeRecording(for: caller)
        case .processing: throw .invalidState(current: state, action: .toggle)
        }
        return .immediate
    }

    /// Starts a recording; nothing changes when one is already running.
    func start(for caller: CommandCaller) throws(RecordingError) -> Confirmation {
        switch state {
        case .idle:
            try checkSpace()
            return beginRecording(for: caller)
        case .recording: return .immediate
        case .paused, .processing: throw .invalidState(current: state, action: .start)
        }
    }

    /// Pauses the recording; when it is already paused, the user takes it over from whatever
    /// interrupted it, so that it no longer resumes by itself.
    func pause() throws(RecordingError) {
        switch state {
        case .recording: pauseRecording(because: .user)
        case .paused: takeOver()
        case .idle, .processing: throw .invalidState(current: state, action: .pause)
        }
    }

    /// Resumes the recording; nothing changes when it is already running.
    /// - Returns: when the input was lost, the reopening, which the caller may wait for.
    func resume(for caller: CommandCaller) throws(RecordingError) -> Confirmation {
        switch state {
        case .paused:
            try checkSpace()
            return resumeRecording(for: caller)
        case .recording: return .immediate
        case .idle, .processing: throw .invalidState(current: state, action: .resume)
        }
    }

    /// Ends the capture and hands the recording on; returns the recording it becomes a memo of.
    func process() throws(RecordingError) -> RecordingID {
        guard state.isCapturing, let recording else {
            throw .invalidState(current: state, action: .process)
        }
        timer.pause(at: clock.now())
        state = .processing
        stopping.insert(recording)
        steps.yield(.stop(recording))
        report()
        return recording
    }

    /// Throws the recording away, cancelling its processing; its audio is deleted.
    func discard() throws(RecordingError) {
        guard state != .idle, let recording else { throw .invalidState(current: state, action: .discard) }
        abandoned.insert(recording)
        processingTasks[recording]?.cancel()
        finish()
        steps.yield(.discard(recording))
    }

    /// Returns when every capture step queued so far has been carried out.
    public func settle() async {
        let (confirmation, promise) = Confirmation.pending()
        steps.yield(.settle(promise))
        try? await confirmation.wait()
    }

    /// The start step tells a caller that waits how the input's opening went, and reports it to
    /// nobody else; with nobody waiting, a failure is reported.
    private func beginRecording(for caller: CommandCaller) -> Confirmation {
        let id = makeRecordingID()
        let locale = pickedLocale()
        recording = id
        self.locale = locale
        awaitingStart.append(id)
        timer.reset()
        state = .recording
        audioLetThrough = false
        capture.holdAudio(true)
        let (confirmation, promise) = caller == .waiting ? Confirmation.pending() : (.immediate, nil)
        steps.yield(.start(id, locale: locale, promise))
        report()
        return confirmation
    }

    func pauseRecording(because reason: PauseReason) {
        guard let recording else { return }
        timer.pause(at: clock.now())
        state = .paused
        pauseReason = reason
        audioLetThrough = false
        capture.holdAudio(true)
        steps.yield(.pause(recording))
        report()
    }

    /// Resumes; after a lost input the capture must reopen it, which may fail: that is the
    /// confirmation returned, so that Resume can answer DeviceUnavailable as Start does.
    @discardableResult
    func resumeRecording(for caller: CommandCaller = .nobody) -> Confirmation {
        guard let recording else { return .immediate }
        let waits = caller == .waiting && pauseReason == .inputLost
        let (confirmation, promise) = waits ? Confirmation.pending() : (.immediate, nil)
        state = .recording
        pauseReason = nil
        steps.yield(.resume(recording, promise))
        report()
        return confirmation
    }

    /// The capture opened (or reopened, or uncorked) the input of `id`: if the recording is still
    /// running, the audio is let through; the timer starts when the first of it reaches the file
    /// (`audioArrived`). A pause holds the audio and stops the timer together, at its transition. So
    /// Elapsed is the audio in the file, however late the input or the capture steps are.
    func inputOpened(for id: RecordingID) {
        guard recording == id, state == .recording, timer.anchor == nil else { return }
        audioLetThrough = true
        letThroughAt = clock.now()
        capture.holdAudio(false)
    }

    /// Never earlier than the audio was let through: an arrival from before a pause and resume counts from the resume.
    func audioArrived(at time: Duration) {
        guard audioLetThrough, state == .recording, timer.anchor == nil else { return }
        timer.run(at: min(max(time, letThroughAt), clock.now()))
        reporter.timerStarted(snapshot)
    }

    /// A paused recording becomes the user's: whatever paused it no longer resumes it.
    private func takeOver() {
        guard pauseReason != .user else { return }
        pauseReason = .user
        report()
    }

    /// A full disk refuses a start or a resume at once; nothing changes.
    private func checkSpace() throws(RecordingError) {
        do throws(CaptureError) { try capture.checkSpace() } catch { throw RecordingError(error) }
    }

    /// Back to idle, reported.
    func finish() {
        state = .idle
        pauseReason = nil
        recording = nil
        locale = nil
        timer.reset()
        report()
    }

    /// The locale a failure names: the recording's, or with none in progress the one a start would take.
    var failureLocale: String { locale ?? pickedLocale() }

    func report() { reporter.stateChanged(snapshot) }
}
