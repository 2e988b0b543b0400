import Testing

@testable import Recording

/// A recording that reaches the length limit goes on as a new memo, against the recorder's doubles.
@Suite struct MemoSplitTests {
    private let first = CapturedAudio(file: "/recordings/r1.wav", duration: 2)

    @Test func theFirstPartIsProcessedWhileTheSecondRecordsOnFromTheLimit() async throws {
        let harness = Harness()
        try await harness.bring(to: .recording)
        harness.clock.advance(by: .seconds(5))

        await harness.capture.report(.lengthLimitReached(RecordingID("r1")))
        await harness.waitFor(.processed(RecordingID("r1")))

        #expect(await harness.recorder.recording == RecordingID("r2"))
        #expect(await harness.recorder.state == .recording)
        #expect(await harness.recorder.snapshot.elapsed == .seconds(3), "the second part's timer counts its own audio")
        #expect(await harness.processing.processed == [first])
        #expect(try await harness.recorder.perform(.process, for: .waiting).memo == RecordingID("r2"))
        await harness.recorder.settle()
        #expect(await harness.processing.processed.last == CapturedAudio(file: "/recordings/r2.wav", duration: 1.5))
        #expect(await harness.capture.calls == ["start", "split", "stop"])
    }

    @Test func aPausedRecordingAtTheLimitGoesOnPaused() async throws {
        let harness = Harness()
        try await harness.bring(to: .paused)
        await harness.capture.report(.lengthLimitReached(RecordingID("r1")))
        await harness.waitFor(.processed(RecordingID("r1")))
        #expect(await harness.recorder.recording == RecordingID("r2"))
        #expect(await harness.recorder.snapshot.pauseReason == .user)
    }

    @Test func discardingTheSecondPartKeepsTheFirst() async throws {
        let harness = Harness()
        try await harness.bring(to: .recording)
        await harness.capture.report(.lengthLimitReached(RecordingID("r1")))
        // Queued behind the split the limit brings.
        await harness.capture.report(.moved(source: "sync"))
        await harness.waitFor(.moved("sync"))
        try await harness.recorder.perform(.discard, for: .waiting)
        await harness.waitFor(.processed(RecordingID("r1")))
        await harness.recorder.settle()

        #expect(await harness.processing.processed == [first])
        #expect(await harness.processing.discarded == [])
        #expect(await harness.capture.calls == ["start", "split", "discard"])
        #expect(await harness.recorder.state == .idle)
    }

    @Test func aLimitOfARecordingNoLongerUnderWayChangesNothing() async throws {
        let harness = Harness()
        try await harness.bring(to: .recording)
        await harness.capture.report(.lengthLimitReached(RecordingID("r0")))
        await harness.capture.report(.moved(source: "sync"))
        await harness.waitFor(.moved("sync"))
        await harness.recorder.settle()
        #expect(await harness.recorder.recording == RecordingID("r1"))
        #expect(await harness.capture.calls == ["start"])
    }

    @Test func noRoomForTheNextFileLeavesTheFirstRecordingPausedForTheDisk() async throws {
        let harness = Harness()
        try await harness.bring(to: .recording)
        let full = CaptureError.noSpace("No room")
        await harness.capture.failSplits(with: full)

        await harness.capture.report(.lengthLimitReached(RecordingID("r1")))
        await harness.waitFor(.failed(RecordingError(full)))

        #expect(await harness.recorder.recording == RecordingID("r1"))
        #expect(await harness.recorder.state == .paused)
        #expect(await harness.recorder.snapshot.pauseReason == .diskFull)
        #expect(await harness.processing.processed == [])
    }
}
