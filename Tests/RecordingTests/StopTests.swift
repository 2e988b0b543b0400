import Recording
import Testing

@Suite("Stop: the recording sent, and how its input was released", .timeLimit(.minutes(1)))
struct StopTests {
    @Test func aStopIsAnsweredOnceItsStepHasClosedTheInput() async throws {
        let harness = Harness()
        try await harness.bring(to: .recording)
        let outcome = try await harness.recorder.perform(.stop, for: .waiting)
        let stopped = try #require(outcome.memo)
        #expect(await harness.recorder.state == .processing)
        #expect(await outcome.release.wait() == .released)
        #expect(await harness.capture.calls == ["start", "stop"])
        await harness.waitFor(.processed(stopped))
    }

    @Test func aFileThatCannotBeFinishedIsReleasedWithItsError() async throws {
        let harness = Harness()
        await harness.capture.failStops(with: .failed("Cannot write the WAV header (I/O error)."))
        try await harness.bring(to: .paused)
        let outcome = try await harness.recorder.perform(.stop, for: .waiting)
        #expect(outcome.memo == RecordingID("r1"))
        let expected = InputRelease.releasedWithError("Cannot write the WAV header (I/O error).")
        #expect(await outcome.release.wait() == expected)
        #expect(await harness.recorder.state == .idle)
        #expect(await outcome.release.wait() == expected, "asked again, the same answer")
        let again = try await harness.recorder.perform(.stop, for: .waiting)
        #expect(again.memo == nil, "idle: nothing more to stop")
        #expect(await again.release.wait() == .released)
    }

    /// Start and Stop sent together: the Stop waits for the input the Start opens, then for its release.
    @Test func aStopRightAfterAStartWaitsForTheInputToOpenAndClose() async throws {
        let harness = Harness()
        try await harness.recorder.perform(.start, for: .waiting)
        let outcome = try await harness.recorder.perform(.stop, for: .waiting)
        #expect(outcome.memo == RecordingID("r1"))
        #expect(await outcome.release.wait() == .released)
        #expect(await harness.capture.calls == ["start", "stop"])
    }

    @Test func aStopOfARecordingWhoseInputNeverOpenedIsAnsweredReleased() async throws {
        let harness = Harness()
        await harness.capture.failStarts(with: .deviceUnavailable("No audio source named 'x'"))
        try await harness.recorder.perform(.start, for: .nobody)
        let outcome = try await harness.recorder.perform(.stop, for: .waiting)
        #expect(outcome.memo == RecordingID("r1"))
        #expect(await outcome.release.wait() == .released)
        #expect(await harness.capture.calls == ["start"])
    }

    @Test func aStopDuringProcessingJoinsTheSameRecording() async throws {
        let harness = Harness()
        try await harness.bring(to: .processing)
        let processed = try #require(await harness.recorder.recording)
        let outcome = try await harness.recorder.perform(.stop, for: .nobody)
        #expect(outcome.memo == processed, "already ending: the same recording, not another")
        #expect(await outcome.release.wait() == .released)
    }

    /// A discard that overtakes the stop step releases the input itself: that is the answer.
    @Test func aDiscardRightAfterAStopAnswersItOnceTheInputIsClosed() async throws {
        let harness = Harness()
        try await harness.bring(to: .recording)
        let outcome = try await harness.recorder.stopAndDiscard()
        #expect(outcome.memo == RecordingID("r1"))
        #expect(await outcome.release.wait() == .released)
        #expect(await harness.capture.calls == ["start", "discard"])
    }
}

extension Recorder {
    /// Both in one turn of the recorder, before the capture chain runs the stop step.
    fileprivate func stopAndDiscard() throws -> CommandOutcome {
        let stopped = try perform(.stop, for: .waiting)
        try perform(.discard, for: .waiting)
        return stopped
    }
}
