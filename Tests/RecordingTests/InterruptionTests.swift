import Testing

@testable import Recording

/// Calls, sleep, a lost input and a full disk, against the recorder's doubles.
@Suite struct InterruptionTests {
    /// Reports `events` as the capture would, and returns once the recorder has taken them all
    /// (a move is reported back in order, and taken after them).
    private func deliver(_ events: CaptureEvent..., to harness: Harness) async {
        for event in events { await harness.capture.report(event) }
        await harness.capture.report(.moved(source: "sync"))
        for await report in harness.reporter.stream where report == .moved("sync") { break }
        await harness.recorder.settle()
    }

    private func flow(_ harness: Harness) async -> (RecordingState, PauseReason?) {
        (await harness.recorder.state, await harness.recorder.snapshot.pauseReason)
    }

    @Test func aCallPausesAndItsEndResumes() async throws {
        let harness = Harness()
        try await harness.bring(to: .recording)
        await deliver(.callStarted, to: harness)
        #expect(await flow(harness) == (.paused, .call))
        await deliver(.callEnded, to: harness)
        #expect(await flow(harness) == (.recording, nil))
        #expect(await harness.capture.calls == ["start", "pause", "resume"])
        #expect(harness.reporter.reports.filter { $0 != .moved("sync") } == [.state(.recording), .state(.paused), .state(.recording)])
    }

    @Test func aRecordingTheUserPausedStaysPausedAfterACall() async throws {
        let harness = Harness()
        try await harness.bring(to: .paused)
        await deliver(.callStarted, .callEnded, to: harness)
        #expect(await flow(harness) == (.paused, .user))
    }

    @Test func theUserTakingOverDuringACallKeepsItPaused() async throws {
        let harness = Harness()
        try await harness.bring(to: .recording)
        await deliver(.callStarted, to: harness)
        try await harness.recorder.perform(.pause, for: .waiting)
        #expect(await flow(harness) == (.paused, .user))
        await deliver(.callEnded, to: harness)
        #expect(await flow(harness) == (.paused, .user))

        // Resumed by hand during the next call, then paused again: the call's end leaves it alone.
        try await harness.recorder.perform(.resume, for: .waiting)
        await deliver(.callStarted, to: harness)
        #expect(await flow(harness) == (.paused, .call))
        try await harness.recorder.perform(.toggle, for: .waiting)
        try await harness.recorder.perform(.toggle, for: .waiting)
        await deliver(.callEnded, to: harness)
        #expect(await flow(harness) == (.paused, .user))
    }

    @Test func aCallWhileIdleOrProcessingChangesNothing() async throws {
        let harness = Harness()
        await deliver(.callStarted, .callEnded, to: harness)
        #expect(await flow(harness) == (.idle, nil))
        #expect(harness.reporter.reports == [.moved("sync")])
    }

    @Test func sleepPausesAndWakingDoesNotResume() async throws {
        let harness = Harness()
        try await harness.bring(to: .recording)
        await harness.recorder.interrupt(.sleep)
        #expect(await flow(harness) == (.paused, .sleep))
        await harness.recorder.interruptionEnded(.sleep)
        #expect(await flow(harness) == (.paused, .sleep))
    }

    @Test func sleepDuringACallTakesThePauseOver() async throws {
        let harness = Harness()
        try await harness.bring(to: .recording)
        await deliver(.callStarted, to: harness)
        await harness.recorder.interrupt(.sleep)
        await deliver(.callEnded, to: harness)
        #expect(await flow(harness) == (.paused, .sleep))
    }

    @Test func anInputLostDuringACallIsNotResumedWhenItEnds() async throws {
        let harness = Harness()
        try await harness.bring(to: .recording)
        await deliver(.callStarted, .lost(message: "gone"), .callEnded, to: harness)
        #expect(await flow(harness) == (.paused, .inputLost))
        #expect(harness.reporter.reports.contains(.failed(.deviceUnavailable("gone"))))
    }

    @Test func aFullDiskPausesAndRefusesResumeAndStartUntilThereIsRoom() async throws {
        let harness = Harness()
        try await harness.bring(to: .recording)
        harness.capture.spaceError.withLock { $0 = .noSpace("No room") }
        await deliver(.outOfSpace(message: "Disk full"), to: harness)
        #expect(await flow(harness) == (.paused, .diskFull))
        #expect(harness.reporter.reports.contains(.failed(.noSpace("Disk full"))))
        await #expect(throws: RecordingError.noSpace("No room")) { try await harness.recorder.perform(.resume, for: .waiting) }
        await #expect(throws: RecordingError.noSpace("No room")) { try await harness.recorder.perform(.toggle, for: .waiting) }
        #expect(await flow(harness) == (.paused, .diskFull))

        // A call's end does not resume onto a full disk either.
        try await harness.recorder.perform(.discard, for: .waiting)
        await #expect(throws: RecordingError.noSpace("No room")) { try await harness.recorder.perform(.start, for: .waiting) }
        #expect(await harness.recorder.state == .idle)

        harness.capture.spaceError.withLock { $0 = nil }
        try await harness.recorder.perform(.start, for: .waiting).confirmation.wait()
        let id = try #require(try await harness.recorder.perform(.process, for: .waiting).memo)
        await harness.waitFor(.processed(id))
        #expect(await harness.processing.processed.count == 1)
    }

    @Test func aMovedInputIsReportedAndTheRecordingGoesOn() async throws {
        let harness = Harness()
        try await harness.bring(to: .recording)
        await deliver(.moved(source: "usb_headset"), to: harness)
        #expect(harness.reporter.reports.contains(.moved("usb_headset")))
        #expect(await flow(harness) == (.recording, nil))
    }
}
