import Recording
import Testing

@Suite("Stop: the recording sent, and how its input was released", .timeLimit(.minutes(1)))
struct StopTests {
    @Test func aStopIsAnsweredOnceItsStepHasClosedTheInput() async throws {
        let harness = Harness()
        try await harness.bring(to: .recording)
        let stopped = try #require(await harness.recorder.stop())
        #expect(await harness.recorder.state == .processing)
        #expect(await harness.recorder.release(of: stopped) == .released)
        #expect(await harness.capture.calls == ["start", "stop"])
        await harness.waitFor(.processed(stopped))
    }

    @Test func aFileThatCannotBeFinishedIsReleasedWithItsError() async throws {
        let harness = Harness()
        await harness.capture.failStops(with: .failed("Cannot write the WAV header (I/O error)."))
        try await harness.bring(to: .paused)
        let stopped = try #require(await harness.recorder.stop())
        let expected = InputRelease.releasedWithError("Cannot write the WAV header (I/O error).")
        #expect(await harness.recorder.release(of: stopped) == expected)
        #expect(await harness.recorder.state == .idle)
        #expect(await harness.recorder.release(of: stopped) == expected, "asked again, the same answer")
        #expect(await harness.recorder.stop() == nil, "idle: nothing more to stop")
    }

    /// Start and Stop sent together: the Stop waits for the input the Start opens, then for its release.
    @Test func aStopRightAfterAStartWaitsForTheInputToOpenAndClose() async throws {
        let harness = Harness()
        _ = try await harness.recorder.start()
        let stopped = try #require(await harness.recorder.stop())
        #expect(await harness.recorder.release(of: stopped) == .released)
        #expect(await harness.capture.calls == ["start", "stop"])
    }

    @Test func aStopOfARecordingWhoseInputNeverOpenedIsAnsweredReleased() async throws {
        let harness = Harness()
        await harness.capture.failStarts(with: .deviceUnavailable("No audio source named 'x'"))
        _ = try await harness.recorder.perform(.start, for: .nobody)
        let stopped = try #require(await harness.recorder.stop())
        #expect(await harness.recorder.release(of: stopped) == .released)
        #expect(await harness.capture.calls == ["start"])
    }

    @Test func aStopDuringProcessingJoinsTheSameRecording() async throws {
        let harness = Harness()
        try await harness.bring(to: .processing)
        let processed = try #require(await harness.recorder.recording)
        #expect(await harness.recorder.stop() == processed, "already ending: the same recording, not another")
        #expect(await harness.recorder.release(of: processed) == .released)
    }

    /// A discard that overtakes the stop step releases the input itself: that is the answer.
    @Test func aDiscardRightAfterAStopAnswersItOnceTheInputIsClosed() async throws {
        let harness = Harness()
        try await harness.bring(to: .recording)
        let stopped = try #require(try await harness.recorder.stopAndDiscard())
        #expect(await harness.recorder.release(of: stopped) == .released)
        #expect(await harness.capture.calls == ["start", "discard"])
    }
}

extension Recorder {
    /// Both in one turn of the recorder, before the capture chain runs the stop step.
    fileprivate func stopAndDiscard() throws -> RecordingID? {
        let stopped = stop()
        try discard()
        return stopped
    }
}
