import Recording
import Testing

@Suite("Commands: a failure goes to the caller that waits, or is reported once when nobody does")
struct CommandTests {
    @Test func aStartNobodyWaitsForIsReportedFailedOnceWhenTheInputCannotOpen() async throws {
        let harness = Harness()
        await harness.capture.failStarts(with: .deviceUnavailable("No audio source named 'x'"))
        let outcome = try await harness.recorder.perform(.start, for: .nobody)
        #expect(outcome.confirmation.isImmediate, "nobody waits: there is nothing to wait for")
        await harness.recorder.settle()
        #expect(await harness.recorder.state == .idle)
        #expect(
            harness.reporter.reports == [.state(.recording), .state(.idle), .failed(.deviceUnavailable("No audio source named 'x'"))])
    }

    @Test func aStartACallerWaitsForFailsInItsReplyAndIsNotReported() async throws {
        let harness = Harness()
        await harness.capture.failStarts(with: .deviceUnavailable("No audio source named 'x'"))
        let outcome = try await harness.recorder.perform(.toggle, for: .waiting)
        await #expect(throws: RecordingError.deviceUnavailable("No audio source named 'x'")) { try await outcome.confirmation.wait() }
        await harness.recorder.settle()
        #expect(harness.reporter.reports == [.state(.recording), .state(.idle)])
    }

    @Test func aFullDiskIsTheWaitingCallersErrorAndReportedWhenNobodyWaits() async throws {
        let harness = Harness()
        harness.capture.spaceError.withLock { $0 = .noSpace("No space left on device") }
        await #expect(throws: RecordingError.noSpace("No space left on device")) {
            try await harness.recorder.perform(.start, for: .waiting)
        }
        #expect(harness.reporter.reports.isEmpty)

        try await harness.recorder.perform(.toggle, for: .nobody)
        #expect(await harness.recorder.state == .idle)
        #expect(harness.reporter.reports == [.failed(.noSpace("No space left on device"))])
    }

    /// A panel that offered what the state no longer allows hears of the refusal; it is no failure to report.
    @Test func aRefusalIsThrownToEveryCallerAndNeverReported() async throws {
        let harness = Harness()
        await #expect(throws: RecordingError.invalidState(current: .idle, action: .discard)) {
            try await harness.recorder.perform(.discard, for: .nobody)
        }
        #expect(harness.reporter.reports.isEmpty)
    }

    @Test func processHandsBackTheRecordingItBecomesAMemoOf() async throws {
        let harness = Harness()
        try await harness.recorder.perform(.start, for: .waiting).confirmation.wait()
        let outcome = try await harness.recorder.perform(.process, for: .waiting)
        #expect(outcome.memo == RecordingID("r1"))
        await harness.waitFor(.processed(RecordingID("r1")))
    }

    /// The user may pick another locale while a recording runs: it is transcribed, and its failures told, in its own.
    @Test func aRecordingKeepsTheLocaleItStartedInUpToItsFailure() async throws {
        let harness = Harness()
        await harness.processing.fail(with: .modelUnavailable("No speech model for ko-KR on this machine"))
        try await harness.recorder.perform(.start, for: .waiting).confirmation.wait()
        harness.pickedLocale.pick("nl-NL")
        try await harness.recorder.perform(.process, for: .nobody)
        await harness.waitFor(.failed(.modelUnavailable("No speech model for ko-KR on this machine")))
        #expect(harness.reporter.failureLocales.withLock { $0 } == ["ko-KR"])

        try await harness.recorder.perform(.start, for: .waiting).confirmation.wait()
        #expect(await harness.capture.startLocales == ["ko-KR", "nl-NL"], "the next recording takes the new pick")
        #expect(await harness.recorder.locale == "nl-NL")
    }
}
