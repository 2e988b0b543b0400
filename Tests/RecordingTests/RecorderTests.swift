import Recording
import Testing

@Suite("Recorder transitions")
struct RecorderTransitionTests {
    /// Every state × every action: the state it leads to, or nil for InvalidState.
    static let table: [(RecordingState, RecordingAction, RecordingState?)] = [
        (.idle, .toggle, .recording), (.idle, .start, .recording), (.idle, .pause, nil),
        (.idle, .resume, nil), (.idle, .process, nil), (.idle, .discard, nil),
        (.recording, .toggle, .paused), (.recording, .start, .recording), (.recording, .pause, .paused),
        (.recording, .resume, .recording), (.recording, .process, .processing), (.recording, .discard, .idle),
        (.paused, .toggle, .recording), (.paused, .start, nil), (.paused, .pause, .paused),
        (.paused, .resume, .recording), (.paused, .process, .processing), (.paused, .discard, .idle),
        (.processing, .toggle, nil), (.processing, .start, nil), (.processing, .pause, nil),
        (.processing, .resume, nil), (.processing, .process, nil), (.processing, .discard, .idle),
        (.idle, .stop, .idle), (.recording, .stop, .processing), (.paused, .stop, .processing), (.processing, .stop, .processing),
    ]

    @Test("covers every state and action", arguments: RecordingState.allCases)
    func tableIsComplete(state: RecordingState) {
        #expect(Set(Self.table.filter { $0.0 == state }.map(\.1)) == Set(RecordingAction.allCases))
    }

    @Test(arguments: table)
    func transition(from state: RecordingState, action: RecordingAction, to expected: RecordingState?) async throws {
        let harness = Harness()
        try await harness.bring(to: state)
        let outcome = await perform(action, on: harness.recorder)
        let stateAfter = await harness.recorder.state
        if let expected {
            #expect(outcome == nil, "\(action) from \(state) failed: \(String(describing: outcome))")
            #expect(stateAfter == expected)
        } else {
            #expect(outcome == .invalidState(current: state, action: action))
            #expect(outcome?.message.contains("while \(state.rawValue)") == true)
            #expect(stateAfter == state)
        }
    }

    /// The error the action failed with, or nil: the command as a bus method sends it, its input's opening awaited.
    private func perform(_ action: RecordingAction, on recorder: Recorder) async -> RecordingError? {
        do throws(RecordingError) {
            try await recorder.perform(action, for: .waiting).confirmation.wait()
            return nil
        } catch {
            return error
        }
    }

    @Test("The audio is let through once the input opened, the timer started by its first samples, both held at a pause")
    func theAudioFollowsTheTimer() async throws {
        let harness = Harness()
        let recorder = harness.recorder
        try await recorder.perform(.start, for: .waiting).confirmation.wait()
        await recorder.settle()
        await harness.timerRuns()
        #expect(harness.capture.holds.withLock { $0 } == [true, false])
        #expect(await recorder.snapshot.timerAnchor != nil)
        try await recorder.perform(.pause, for: .waiting)
        #expect(harness.capture.holds.withLock { $0.last } == true)
        #expect(await recorder.snapshot.timerAnchor == nil)
        _ = try await recorder.perform(.resume, for: .waiting)
        await recorder.settle()
        await harness.timerRuns()
        #expect(harness.capture.holds.withLock { $0.last } == false)
        #expect(await recorder.snapshot.timerAnchor != nil)
    }

    @Test func invalidStateMessageSaysWhatIsAllowed() {
        let error = RecordingError.invalidState(current: .paused, action: .start)
        #expect(error.message == "Cannot Start while paused: paused allows Toggle, Resume, Process, Discard")
    }
}

@Suite("Recorder timer")
struct RecorderTimerTests {
    @Test func elapsedCountsRecordingStretchesOnly() async throws {
        let harness = Harness()
        let recorder = harness.recorder
        try await recorder.perform(.start, for: .waiting).confirmation.wait()
        await harness.timerRuns()
        harness.clock.advance(by: .seconds(5))
        #expect(await recorder.snapshot.elapsed == .seconds(5))
        try await recorder.perform(.pause, for: .waiting)
        harness.clock.advance(by: .seconds(60))
        #expect(await recorder.snapshot.elapsed == .seconds(5))
        #expect(await recorder.snapshot.timerAnchor == nil)
        try await recorder.perform(.resume, for: .waiting)
        // The timer starts again once the capture has uncorked the input, as the audio does.
        await recorder.settle()
        await harness.timerRuns()
        harness.clock.advance(by: .milliseconds(2500))
        let snapshot = await recorder.snapshot
        #expect(snapshot.elapsed == .milliseconds(7500))
        #expect(snapshot.timerAnchor == harness.clock.now() - .milliseconds(7500))
    }

    @Test func anchorStaysPutWhileRecording() async throws {
        let harness = Harness()
        try await harness.recorder.perform(.start, for: .waiting).confirmation.wait()
        await harness.timerRuns()
        let anchor = await harness.recorder.snapshot.timerAnchor
        for _ in 0..<100 { harness.clock.advance(by: .milliseconds(997)) }
        #expect(await harness.recorder.snapshot.timerAnchor == anchor)
        #expect(await harness.recorder.snapshot.elapsed == .milliseconds(99_700))
    }

    @Test func processingFreezesAndIdleResets() async throws {
        let harness = Harness()
        await harness.processing.hold()
        try await harness.recorder.perform(.start, for: .waiting).confirmation.wait()
        await harness.timerRuns()
        harness.clock.advance(by: .seconds(3))
        _ = try await harness.recorder.perform(.process, for: .waiting)
        harness.clock.advance(by: .seconds(10))
        #expect(await harness.recorder.snapshot.elapsed == .seconds(3))
        try await harness.recorder.perform(.discard, for: .waiting)
        #expect(await harness.recorder.snapshot.elapsed == .zero)
    }
}

@Suite("Recorder effects")
struct RecorderEffectTests {
    @Test func captureCallsFollowTransitionOrderHoweverFast() async throws {
        let harness = Harness()
        let recorder = harness.recorder
        var expected: [String] = []
        for index in 0..<1000 {
            _ = try await recorder.perform(.toggle, for: .waiting)
            expected.append(index == 0 ? "start" : (index % 2 == 1 ? "pause" : "resume"))
        }
        await recorder.settle()
        #expect(await harness.capture.calls == expected)
        #expect(await recorder.state == .paused)
    }

    @Test func processHandsTheCapturedFileOn() async throws {
        let harness = Harness()
        try await harness.recorder.perform(.start, for: .waiting).confirmation.wait()
        let id = try #require(try await harness.recorder.perform(.process, for: .waiting).memo)
        await harness.waitFor(.processed(id))
        #expect(await harness.capture.calls == ["start", "stop"])
        #expect(await harness.processing.processed == [CapturedAudio(file: "/recordings/\(id).wav", duration: 1.5)])
        #expect(harness.reporter.reports == [.state(.recording), .state(.processing), .processed(id), .state(.idle)])
        #expect(await harness.recorder.state == .idle)
    }

    @Test func discardWhileRecordingDeletesWithoutStopping() async throws {
        let harness = Harness()
        try await harness.bring(to: .paused)
        try await harness.recorder.perform(.discard, for: .waiting)
        await harness.recorder.settle()
        #expect(await harness.capture.calls == ["start", "pause", "discard"])
        #expect(await harness.processing.processed.isEmpty)
    }

    @Test func discardWhileProcessingCancelsAndDeletes() async throws {
        let harness = Harness()
        try await harness.bring(to: .processing)
        try await harness.recorder.perform(.discard, for: .waiting)
        await harness.processing.waitUntilDiscarded()
        #expect(await harness.processing.processed.isEmpty)
        #expect(await harness.processing.discarded.count == 1)
        #expect(!harness.reporter.reports.contains { if case .processed = $0 { true } else { false } })
        #expect(await harness.recorder.state == .idle)
    }

    @Test(
        "A discarded memo whose transcription notices the cancellation late holds up no capture step: the next Start opens the input",
        .timeLimit(.minutes(1)))
    func aLateCancellationDoesNotDelayTheNextRecording() async throws {
        let harness = Harness()
        await harness.processing.holdPastCancellation()
        try await harness.recorder.perform(.start, for: .waiting).confirmation.wait()
        _ = try await harness.recorder.perform(.process, for: .waiting)
        await harness.processing.waitUntilStarted()
        try await harness.recorder.perform(.discard, for: .waiting)

        try await harness.recorder.perform(.start, for: .waiting).confirmation.wait()
        #expect(await harness.capture.calls == ["start", "stop", "discard", "start"])
        #expect(await harness.recorder.state == .recording)
        await harness.processing.release()
        await harness.processing.waitUntilDiscarded()
        #expect(await harness.processing.processed.isEmpty)
        #expect(await harness.recorder.state == .recording, "the old memo's end leaves the new recording alone")
    }

    @Test func startFailsWhenTheMicrophoneCannotOpen() async throws {
        let harness = Harness()
        await harness.capture.failStarts(with: .deviceUnavailable("No audio source named 'x'"))
        let confirmation = try await harness.recorder.perform(.start, for: .waiting).confirmation
        await #expect(throws: RecordingError.deviceUnavailable("No audio source named 'x'")) { try await confirmation.wait() }
        #expect(await harness.recorder.state == .idle)
        #expect(harness.reporter.reports == [.state(.recording), .state(.idle)])
        await harness.capture.failStarts(with: nil)
        try await harness.recorder.perform(.start, for: .waiting).confirmation.wait()  // the microphone is back: the next start works
        #expect(await harness.recorder.state == .recording)
    }

    @Test func lostCapturePausesAndReports() async throws {
        let harness = Harness()
        try await harness.bring(to: .recording)
        await harness.capture.lose("The source went away")
        for await report in harness.reporter.stream {
            if case .failed = report { break }
        }
        #expect(harness.reporter.reports == [.state(.recording), .state(.paused), .failed(.deviceUnavailable("The source went away"))])
        #expect(await harness.recorder.state == .paused)
        try await harness.recorder.perform(.resume, for: .waiting)
        await harness.recorder.settle()
        #expect(await harness.capture.calls == ["start", "pause", "resume"])
    }
}
