import Recording
import Testing

@testable import Dictating

/// A recording that heard speech and then quiet for `SilenceSeconds` is told once as quiet long enough; the quiet is
/// counted in captured samples, so no clock is read.
@Suite("Ending on silence, counted in samples")
struct SilenceEndingUnitTests {
    private let recording = RecordingID("1796248096332715")

    @Test func speechThenTheChosenQuietIsToldOnce() {
        let quiet = HeardQuiet()
        let ending = SilenceEnding(seconds: 1, listener: quiet, settings: KeptSettings())
        ending.captureStarted(recording, locale: "en-US")
        ending.hear(Samples.speech(seconds: 0.5) + Samples.quiet(seconds: 0.9), of: recording)
        #expect(quiet.all.isEmpty, "0.9 s of quiet is not 1 s")
        ending.hear(Samples.quiet(seconds: 0.2), of: recording)
        #expect(quiet.all == [recording])
        ending.hear(Samples.speech(seconds: 0.5) + Samples.quiet(seconds: 2), of: recording)
        #expect(quiet.all == [recording], "told once: what comes after is not heard")
    }

    @Test func quietWithoutSpeechOrWithTheWaitOffEndsNothing() {
        let quiet = HeardQuiet()
        let off = SilenceEnding(listener: quiet, settings: KeptSettings())
        off.captureStarted(recording, locale: "en-US")
        off.hear(Samples.speech(seconds: 0.5) + Samples.quiet(seconds: 5), of: recording)
        let waiting = SilenceEnding(seconds: 1, listener: quiet, settings: KeptSettings())
        waiting.captureStarted(recording, locale: "en-US")
        waiting.hear(Samples.quiet(seconds: 5), of: recording)
        #expect(quiet.all.isEmpty)
    }

    @Test func aRecordingsOwnWaitWins() {
        let quiet = HeardQuiet()
        let ending = SilenceEnding(seconds: 10, listener: quiet, settings: KeptSettings())
        ending.end(recording, after: 0.5)
        ending.captureStarted(recording, locale: "en-US")
        ending.hear(Samples.speech(seconds: 0.5) + Samples.quiet(seconds: 0.6), of: recording)
        #expect(quiet.all == [recording])
    }

    @Test func theQuietGoesOnBeingCountedInTheNextPartOfASplitRecording() {
        let quiet = HeardQuiet()
        let next = RecordingID("1796248096332716")
        let ending = SilenceEnding(seconds: 1, listener: quiet, settings: KeptSettings())
        ending.captureStarted(recording, locale: "en-US")
        ending.hear(Samples.speech(seconds: 0.5) + Samples.quiet(seconds: 0.6), of: recording)
        ending.captureContinued(recording, as: next)
        ending.hear(Samples.quiet(seconds: 0.6), of: next)
        #expect(quiet.all == [next])
    }

    @Test func aDiscardedRecordingIsNoLongerHeard() {
        let quiet = HeardQuiet()
        let ending = SilenceEnding(seconds: 1, listener: quiet, settings: KeptSettings())
        ending.captureStarted(recording, locale: "en-US")
        ending.hear(Samples.speech(seconds: 0.5), of: recording)
        ending.captureDropped(recording)
        ending.hear(Samples.quiet(seconds: 2), of: recording)
        #expect(quiet.all.isEmpty)
    }

    @Test func aChosenWaitIsReportedAndOneOutOfRangeRefused() throws {
        let settings = KeptSettings()
        let ending = SilenceEnding(listener: HeardQuiet(), settings: settings)
        try ending.choose(2.5)
        #expect(ending.seconds == 2.5)
        let refused = #expect(throws: WaitOutOfRange.self) { try ending.choose(601) }
        #expect(refused?.message == "SilenceSeconds is from 0.0 (off) to 600.0 seconds")
        #expect(throws: WaitOutOfRange.self) { try ending.choose(-1) }
        #expect(ending.seconds == 2.5)
        #expect(settings.all == [.silenceSeconds(2.5)])
    }
}
