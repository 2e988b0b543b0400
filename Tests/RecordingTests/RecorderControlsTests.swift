import Recording
import Testing

@Suite("The surfaces' controls: commands nobody waits for, through a link made before the recorder")
struct RecorderControlsTests {
    @Test func aFailureIsReportedOnceAndOnlyARefusalIsThrown() async throws {
        let harness = Harness()
        let controls = RecorderLink()
        controls.connect(harness.recorder)
        await harness.capture.failStarts(with: .deviceUnavailable("No audio source named 'x'"))
        try await harness.recorder.burst { _ throws(RecordingError) in try controls.perform(.toggle) }
        await harness.recorder.settle()
        #expect(
            harness.reporter.reports == [.state(.recording), .state(.idle), .failed(.deviceUnavailable("No audio source named 'x'"))])
        await #expect(throws: RecordingError.invalidState(current: .idle, action: .discard)) {
            try await harness.recorder.burst { _ throws(RecordingError) in try controls.perform(.discard) }
        }
        #expect(harness.reporter.reports.count == 3, "a refusal is the surface's to show, not reported")
    }

    /// The silence ending hears the quiet off the recorder's executor: the user may have paused or sent meanwhile.
    @Test func aCommandWhileRunningRunsOnlyForTheRecordingStillRunning() async throws {
        let harness = Harness()
        let controls = RecorderLink()
        controls.connect(harness.recorder)
        try await harness.bring(to: .recording)
        #expect(try await controls.perform(.process, whileRunning: RecordingID("r9")) == nil, "another recording")
        try await harness.recorder.perform(.pause, for: .waiting)
        #expect(try await controls.perform(.process, whileRunning: RecordingID("r1")) == nil, "paused by the user")
        try await harness.recorder.perform(.resume, for: .waiting)
        #expect(try await controls.perform(.process, whileRunning: RecordingID("r1"))?.memo == RecordingID("r1"))
        #expect(await harness.recorder.state == .processing)
    }

    @Test func theFlowIsReadThroughTheLinkOnceConnected() async throws {
        let harness = Harness()
        let controls = RecorderLink()
        #expect(controls.snapshot.state == .idle)
        await #expect(throws: RecordingError.self) { try await controls.perform(.process, whileRunning: RecordingID("r1")) }
        controls.connect(harness.recorder)
        try await harness.bring(to: .paused)
        let state = await harness.recorder.reading { _ in controls.snapshot.state }
        #expect(state == .paused)
    }
}

extension Recorder {
    /// Runs `body` on the recorder's executor, where the surfaces call their controls.
    fileprivate func reading<T: Sendable>(_ body: @Sendable (isolated Recorder) -> T) -> T { body(self) }
}
