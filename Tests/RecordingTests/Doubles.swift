import Recording
import Synchronization

/// A clock the test advances by hand.
final class ManualClock: MonotonicClock {
    private let time = Mutex<Duration>(.seconds(1000))
    func now() -> Duration { time.withLock { $0 } }
    func advance(by duration: Duration) { time.withLock { $0 += duration } }
}

/// Records the capture calls in the order they arrive; can fail a start, hold a stop, and lose the stream.
actor RecordingCapture: Capturing {
    private(set) var calls: [String] = []
    var startError: CaptureError?
    /// What `checkSpace` throws: set while the double's disk is full.
    nonisolated let spaceError = Mutex<CaptureError?>(nil)
    nonisolated let events: AsyncStream<CaptureEvent>
    private let eventSink: AsyncStream<CaptureEvent>.Continuation
    private var current: RecordingID?

    init() { (events, eventSink) = AsyncStream.makeStream(of: CaptureEvent.self) }

    /// What `split` throws: set while the double's disk has no room for another file.
    var splitError: CaptureError?

    func failStarts(with error: CaptureError?) { startError = error }
    func failSplits(with error: CaptureError?) { splitError = error }
    /// What `stop` throws after closing the input: set while the double's file cannot be finished.
    var stopError: CaptureError?
    func failStops(with error: CaptureError?) { stopError = error }
    func lose(_ message: String) { eventSink.yield(.lost(message: message)) }
    func report(_ event: CaptureEvent) { eventSink.yield(event) }

    /// The locale each start was given, in order.
    private(set) var startLocales: [String] = []

    func start(recording: RecordingID, locale: String) async throws(CaptureError) {
        calls.append("start")
        startLocales.append(locale)
        if let startError { throw startError }
        current = recording
    }
    func pause() async throws(CaptureError) { calls.append("pause") }
    func resume() async throws(CaptureError) { calls.append("resume") }
    func stop() async throws(CaptureError) -> CapturedAudio {
        calls.append("stop")
        if let stopError { throw stopError }
        return CapturedAudio(file: "/recordings/\(current?.rawValue ?? "none").wav", duration: 1.5)
    }
    /// The first part is 2 s long.
    func split(continuingAs next: RecordingID) async throws(CaptureError) -> CapturedAudio {
        calls.append("split")
        if let splitError { throw splitError }
        defer { current = next }
        return CapturedAudio(file: "/recordings/\(current?.rawValue ?? "none").wav", duration: 2)
    }
    func discard() async { calls.append("discard") }
    /// Every `holdAudio` in order: the transitions make them synchronously, apart from the steps.
    nonisolated let holds = Mutex<[Bool]>([])
    /// Set for an input that delivers nothing until `deliverAudio`; a live one delivers as soon as it is let through.
    nonisolated let isLate = Mutex(false)
    nonisolated func holdAudio(_ held: Bool) {
        holds.withLock { $0.append(held) }
        // At once: no later than the recorder let it through.
        if !held, !isLate.withLock({ $0 }) { eventSink.yield(.audioArrived(at: .zero)) }
    }
    /// The late input's first samples reach the file at `time`.
    func deliverAudio(at time: Duration) { eventSink.yield(.audioArrived(at: time)) }
    nonisolated var level: Double { -160 }
    nonisolated func checkSpace() throws(CaptureError) {
        if let error = spaceError.withLock({ $0 }) { throw error }
    }
}

/// Records what is handed on; can hold processing until a discard cancels it, or, as a decode that only
/// looks for cancellation between its blocks does, until released by hand.
actor RecordingProcessing: Processing {
    private(set) var processed: [CapturedAudio] = []
    private(set) var discarded: [CapturedAudio] = []
    private var holding = false
    private var heldPastCancellation: CheckedContinuation<Void, Never>?
    private var holdsPastCancellation = false
    private var started: [CheckedContinuation<Void, Never>] = []
    private var hasStarted = false
    private var discarding: [CheckedContinuation<Void, Never>] = []

    /// What processing throws from now on (no model for the recording's locale, …).
    private var failure: RecordingError?
    func fail(with error: RecordingError) { failure = error }

    func hold() { holding = true }
    func holdPastCancellation() { holdsPastCancellation = true }

    /// Lets a processing held past its cancellation end.
    func release() {
        holdsPastCancellation = false
        heldPastCancellation?.resume()
        heldPastCancellation = nil
    }

    /// Returns once processing has begun.
    func waitUntilStarted() async {
        if hasStarted { return }
        await withCheckedContinuation { started.append($0) }
    }

    /// Returns once some audio was discarded.
    func waitUntilDiscarded() async {
        if !discarded.isEmpty { return }
        await withCheckedContinuation { discarding.append($0) }
    }

    func process(_ audio: CapturedAudio, recording: RecordingID) async throws(RecordingError) {
        hasStarted = true
        started.forEach { $0.resume() }
        started.removeAll()
        if holdsPastCancellation {
            await withCheckedContinuation { heldPastCancellation = $0 }
            throw .failed("cancelled")
        }
        if holding {
            // Held until the task is cancelled: the only way out is a discard.
            let (stream, continuation) = AsyncStream.makeStream(of: Void.self)
            await withTaskCancellationHandler {
                for await _ in stream {}
            } onCancel: {
                continuation.finish()
            }
            throw .failed("cancelled")
        }
        if let failure { throw failure }
        processed.append(audio)
    }

    func discard(_ audio: CapturedAudio) async {
        discarded.append(audio)
        discarding.forEach { $0.resume() }
        discarding.removeAll()
    }
}

/// Records every report in order.
final class RecordingReporter: Reporting {
    enum Report: Equatable {
        case state(RecordingState)
        case processed(RecordingID)
        case failed(RecordingError)
        case moved(String)
    }

    private let log = Mutex<[Report]>([])
    var reports: [Report] { log.withLock { $0 } }
    /// Every report as it is made, to wait on.
    let stream: AsyncStream<Report>
    private let sink: AsyncStream<Report>.Continuation

    /// One element at each start of the timer, which comes with the input's first samples, apart from the steps.
    let timerStarts: AsyncStream<Void>
    private let timerSink: AsyncStream<Void>.Continuation

    init() {
        (stream, sink) = AsyncStream.makeStream(of: Report.self)
        (timerStarts, timerSink) = AsyncStream.makeStream(of: Void.self)
    }

    func stateChanged(_ snapshot: RecorderSnapshot) { append(.state(snapshot.state)) }
    func timerStarted(_ snapshot: RecorderSnapshot) { timerSink.yield() }
    func processed(_ recording: RecordingID) { append(.processed(recording)) }
    func failed(_ error: RecordingError, locale: String) {
        failureLocales.withLock { $0.append(locale) }
        append(.failed(error))
    }
    /// The locale each failure was reported with, in order.
    let failureLocales = Mutex<[String]>([])
    func inputMoved(to source: String) { append(.moved(source)) }

    private func append(_ report: Report) {
        log.withLock { $0.append(report) }
        sink.yield(report)
    }
}

/// The locale the user picked, "ko-KR" until the test picks another.
final class PickedLocale: Sendable {
    private let locale = Mutex("ko-KR")
    var current: String { locale.withLock { $0 } }
    func pick(_ tag: String) { locale.withLock { $0 = tag } }
}

/// The executor the recorder shares in the tests (the bus, in the service).
actor TestIsolation {}

/// A recorder wired to the doubles, with ids "r1", "r2", …
struct Harness {
    let clock = ManualClock()
    let capture = RecordingCapture()
    let processing = RecordingProcessing()
    let reporter = RecordingReporter()
    /// The user's pick, which a recording takes when it starts.
    let pickedLocale = PickedLocale()
    let recorder: Recorder

    init() {
        let counter = Mutex(0)
        let pickedLocale = self.pickedLocale
        recorder = Recorder(
            isolation: TestIsolation(), clock: clock, capture: capture, processing: processing, reporter: reporter,
            makeRecordingID: { RecordingID("r\(counter.withLock { $0 += 1; return $0 })") },
            pickedLocale: { pickedLocale.current })
    }

    /// Returns once the recorder made `expected`: processing ends apart from the capture steps.
    func waitFor(_ expected: RecordingReporter.Report) async {
        for await report in reporter.stream where report == expected { break }
    }

    /// Returns once the timer has started (again): at the input's first samples after it opened.
    func timerRuns() async {
        var starts = reporter.timerStarts.makeAsyncIterator()
        _ = await starts.next()
    }

    /// Brings the recorder to `state` through its public transitions.
    func bring(to state: RecordingState) async throws {
        switch state {
        case .idle: return
        case .recording:
            try await recorder.perform(.start, for: .waiting).confirmation.wait()
            await timerRuns()
        case .paused:
            try await recorder.perform(.start, for: .waiting).confirmation.wait()
            try await recorder.perform(.pause, for: .waiting)
        case .processing:
            await processing.hold()
            try await recorder.perform(.start, for: .waiting).confirmation.wait()
            _ = try await recorder.perform(.process, for: .waiting)
            // Held until a discard cancels it; it runs beside the capture chain.
            return await processing.waitUntilStarted()
        }
        await recorder.settle()
    }
}
