import Testing

@testable import Recording

extension Recorder {
    /// Runs `body` in one turn of the recorder's executor: transitions faster than the chain.
    func burst(_ body: @Sendable (isolated Recorder) throws(RecordingError) -> Void) throws(RecordingError) { try body(self) }
}

@Suite struct ChainLagTests {
    /// Found by the eight-client run: the start step of a recording discarded long ago forgot that
    /// a later one was discarded too, which then was captured and handed on as a memo.
    @Test func aRecordingDiscardedBeforeTheChainReachedItStaysDiscarded() async throws {
        let harness = Harness()
        try await harness.recorder.burst { recorder throws(RecordingError) in
            try recorder.perform(.start, for: .waiting)
            try recorder.perform(.discard, for: .waiting)
            try recorder.perform(.start, for: .waiting)
            _ = try recorder.perform(.process, for: .waiting)
            try recorder.perform(.discard, for: .waiting)
        }
        await harness.recorder.settle()
        #expect(await harness.capture.calls == ["discard", "discard"])
        #expect(await harness.processing.processed.isEmpty)
        #expect(await harness.recorder.state == .idle)
    }
}

@Suite struct TimerFollowsTheInputTests {
    /// Elapsed is the audio in the file: time the capture chain spends catching up before the
    /// input opens is not recorded time.
    @Test func theTimerCountsFromTheMomentTheInputIsOpen() async throws {
        let harness = Harness()
        try await harness.recorder.burst { recorder throws(RecordingError) in try recorder.perform(.start, for: .waiting) }
        harness.clock.advance(by: .seconds(2))
        await harness.recorder.settle()
        await harness.timerRuns()
        #expect(await harness.recorder.snapshot.elapsed == .zero)
        harness.clock.advance(by: .seconds(1))
        #expect(await harness.recorder.snapshot.elapsed == .seconds(1))

        // A lost input stops the count until a resume has opened it again.
        await harness.capture.lose("gone")
        for await report in harness.reporter.stream where report == .failed(.deviceUnavailable("gone")) { break }
        try await harness.recorder.burst { recorder throws(RecordingError) in _ = try recorder.perform(.resume, for: .waiting) }
        harness.clock.advance(by: .seconds(3))
        await harness.recorder.settle()
        await harness.timerRuns()
        harness.clock.advance(by: .seconds(1))
        #expect(await harness.recorder.snapshot.elapsed == .seconds(2))
    }

    /// An input open a second and a half before it delivers anything (a Bluetooth headset switching
    /// profiles) records nothing meanwhile: the timer, and its anchor, start with the first samples.
    @Test func theTimerWaitsForTheFirstSamplesOfALateInput() async throws {
        let harness = Harness()
        harness.capture.isLate.withLock { $0 = true }
        try await harness.recorder.perform(.start, for: .waiting).confirmation.wait()
        harness.clock.advance(by: .milliseconds(1500))
        #expect(await harness.recorder.snapshot.elapsed == .zero)
        #expect(await harness.recorder.snapshot.timerAnchor == nil)

        await harness.capture.deliverAudio(at: harness.clock.now())
        await harness.timerRuns()
        harness.clock.advance(by: .seconds(2))
        let snapshot = await harness.recorder.snapshot
        #expect(snapshot.elapsed == .seconds(2))
        #expect(snapshot.timerAnchor == harness.clock.now() - .seconds(2))
    }
}
