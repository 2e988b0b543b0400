import Recording
import Testing

@Suite("A recording kept at the service's exit")
struct KeepForExitTests {
    @Test("Recording: reported paused, the file closed and handed back, nothing processed")
    func recordingIsPausedAndClosed() async throws {
        let harness = Harness()
        try await harness.recorder.perform(.start, for: .waiting).confirmation.wait()
        await harness.timerRuns()
        harness.clock.advance(by: .seconds(3))
        let kept = await harness.recorder.keepForExit()
        #expect(kept?.recording == RecordingID("r1"))
        #expect(kept?.audio == CapturedAudio(file: "/recordings/r1.wav", duration: 1.5))
        #expect(await harness.recorder.state == .paused)
        #expect(await harness.recorder.snapshot.elapsed == .seconds(3))
        #expect(harness.reporter.reports == [.state(.recording), .state(.paused)])
        #expect(await harness.capture.calls == ["start", "pause", "stop"])
        #expect(await harness.processing.processed.isEmpty)
    }

    @Test("Paused: closed as it is, with no second pause")
    func pausedIsClosed() async throws {
        let harness = Harness()
        try await harness.bring(to: .paused)
        #expect(await harness.recorder.keepForExit()?.recording == RecordingID("r1"))
        #expect(harness.reporter.reports == [.state(.recording), .state(.paused)])
        #expect(await harness.capture.calls == ["start", "pause", "stop"])
    }

    @Test("Idle: nothing to keep")
    func idleKeepsNothing() async {
        let harness = Harness()
        #expect(await harness.recorder.keepForExit() == nil)
        #expect(await harness.capture.calls.isEmpty)
    }
}
