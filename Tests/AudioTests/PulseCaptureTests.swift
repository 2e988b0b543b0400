import Foundation
import NotulaTestSupport
import Recording
import TestPasses
import Testing

@testable import Audio

/// Against the real PulseAudio server of the environment, which must have a sink named `mic`.
@Suite(.serialized, .tags(.capture))
struct PulseCaptureTests {
    /// A sink of each test's own, kept live at low latency as a microphone is (see `NullSink`).
    let sink: NullSink

    init() async throws { sink = try await NullSink() }

    @Test func recordsSpeechAcrossAPauseIntoAPrivateValidWAV() async throws {
        let folder = TemporaryFolder()
        defer { folder.remove() }
        let capture = PulseCapture(recordingsDirectory: folder.recordings, source: sink.monitor)
        let speech = try await TestSounds.speech()

        try await capture.start(recording: RecordingID("speech"), locale: "ko-KR")
        try await sink.play(speech)
        try await capture.pause()
        try await capture.resume()
        try await sink.play(speech)
        let audio = try await capture.stop()

        #expect(audio.file == folder.recordings + "/speech.wav")
        let wav = try WAVReader(path: audio.file)
        #expect(wav.channels == 1 && wav.sampleRate == 16_000 && wav.bitsPerSample == 16)
        #expect(wav.declaredDataBytes == wav.fileSize - 44)
        #expect(wav.riffSize == wav.fileSize - 8)
        #expect(audio.duration == Double(wav.declaredDataBytes) / 32_000)
        #expect(audio.duration > 4)  // two plays of ~3 s of speech
        #expect(wav.peak > 3_000, "the speech should be clearly audible, peak was \(wav.peak)")
        #expect(try permissions(of: folder.recordings) == 0o700)
        #expect(try permissions(of: audio.file) == 0o600)
    }

    /// Driven as the recorder drives it: the audio held from the start's transition until the input is open, the timer
    /// run from the first samples let through (`audioArrived`) to the next transition, which holds the audio again.
    /// The WAV holds as long as that timer, however late the steps come: a start whose caller resumed 1.49 s late
    /// (a first `make test` on a new machine, both cores busy) left 1.47 s in a file timed from the return of `start`.
    @Test func wavLengthMatchesTheTimerRunFromTheFirstSamples() async throws {
        let folder = TemporaryFolder()
        defer { folder.remove() }
        let capture = PulseCapture(recordingsDirectory: folder.recordings, source: sink.monitor)
        var arrivals = capture.events.compactMap { event -> Duration? in
            if case .audioArrived(let time) = event { time } else { nil }
        }.makeAsyncIterator()
        let tone = try await TestSounds.tone(seconds: 1)
        let clock = MonotonicSystemClock()

        capture.holdAudio(true)
        try await capture.start(recording: RecordingID("timing"), locale: "ko-KR")
        // A second of tone between the input's opening and its step letting the audio through: a late step.
        try await sink.play(tone)
        capture.holdAudio(false)
        let firstRun = try #require(await arrivals.next())
        try await sink.play(tone)
        capture.holdAudio(true)
        let paused = clock.now()
        try await capture.pause()
        try await sink.play(tone)
        try await capture.resume()
        capture.holdAudio(false)
        let secondRun = try #require(await arrivals.next())
        try await sink.play(tone)
        let stopped = clock.now()
        let audio = try await capture.stop()

        let timer = ((paused - firstRun) + (stopped - secondRun)).seconds
        print("Timer \(timer) s, WAV \(audio.duration) s, WAV − timer \(audio.duration - timer) s")
        #expect(abs(audio.duration - timer) < 0.1)
    }

    @Test func levelFollowsTheInputAndIsMinus160WhenNotCapturing() async throws {
        let folder = TemporaryFolder()
        defer { folder.remove() }
        let capture = PulseCapture(recordingsDirectory: folder.recordings, source: sink.monitor)
        let tone = try await TestSounds.tone(seconds: 1)
        #expect(capture.level == -160)

        try await capture.start(recording: RecordingID("level"), locale: "ko-KR")
        try await sink.play(tone)
        // The tone plays until paplay exits, so the last 100 ms received are tone: about −9 dBFS.
        let whilePlaying = capture.level
        try await capture.pause()
        let whilePaused = capture.level
        _ = try await capture.stop()

        #expect(whilePlaying > -20 && whilePlaying < 0, "level was \(whilePlaying)")
        #expect(whilePaused == -160)
        #expect(capture.level == -160)
    }

    @Test func aMissingSourceIsNamedAndLeavesNoFile() async throws {
        let folder = TemporaryFolder()
        defer { folder.remove() }
        let capture = PulseCapture(recordingsDirectory: folder.recordings, source: "no-such-source")

        let error = await #expect(throws: CaptureError.self) {
            try await capture.start(recording: RecordingID("missing"), locale: "ko-KR")
        }

        guard case .deviceUnavailable(let message) = error else {
            Issue.record("expected deviceUnavailable, got \(String(describing: error))")
            return
        }
        #expect(message.contains("'no-such-source'"))
        #expect(folder.files().isEmpty)
    }

    @Test func noServerFailsFastAndLeavesNoFile() async throws {
        let folder = TemporaryFolder()
        defer { folder.remove() }
        let capture = PulseCapture(
            recordingsDirectory: folder.recordings, server: "unix:\(folder.path)/no-such-server/native")
        let clock = ContinuousClock()

        let began = clock.now
        let error = await #expect(throws: CaptureError.self) {
            try await capture.start(recording: RecordingID("unreachable"), locale: "ko-KR")
        }

        #expect(clock.now - began < .seconds(2))
        guard case .deviceUnavailable(let message) = error else {
            Issue.record("expected deviceUnavailable, got \(String(describing: error))")
            return
        }
        #expect(message.contains("Cannot reach the PulseAudio server"))
        #expect(folder.files().isEmpty)
    }

    @Test func aServerThatNeverAnswersTimesOutAfterAbout5Seconds() async throws {
        let folder = TemporaryFolder()
        defer { folder.remove() }
        let silentServer = try SilentSocket(path: folder.path + "/silent")
        let capture = PulseCapture(recordingsDirectory: folder.recordings, server: "unix:" + silentServer.path)
        let clock = ContinuousClock()

        let began = clock.now
        let error = await #expect(throws: CaptureError.self) {
            try await capture.start(recording: RecordingID("silent"), locale: "ko-KR")
        }

        let waited = clock.now - began
        #expect(waited > .seconds(4) && waited < .seconds(7), "waited \(waited)")
        guard case .deviceUnavailable(let message) = error else {
            Issue.record("expected deviceUnavailable, got \(String(describing: error))")
            return
        }
        #expect(message.contains("Timeout"))
        #expect(folder.files().isEmpty)
        withExtendedLifetime(silentServer) {}
    }

    @Test func discardDeletesTheFileFromTheDefaultSource() async throws {
        let folder = TemporaryFolder()
        defer { folder.remove() }
        try FileManager.default.createDirectory(
            atPath: folder.recordings, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
        let capture = PulseCapture(recordingsDirectory: folder.recordings)
        await capture.discard()  // not started: nothing to do

        try await capture.start(recording: RecordingID("discarded"), locale: "ko-KR")
        #expect(folder.files() == ["discarded.wav"])
        #expect(try permissions(of: folder.recordings) == 0o700)
        await capture.discard()

        #expect(folder.files().isEmpty)
        await #expect(throws: CaptureError.failed("Not capturing")) { try await capture.stop() }
    }

    @Test func aKilledStreamIsReportedKeptAndReopenedOnResume() async throws {
        let folder = TemporaryFolder()
        defer { folder.remove() }
        let (capture, event) = try await captureThenLose(into: folder, by: TestServer.killRecordStream(of:))
        let tone = try await TestSounds.tone(seconds: 1)

        guard case .lost(let message) = event else {
            Issue.record("expected a lost event, got \(String(describing: event))")
            return
        }
        #expect(message.contains("Lost the audio input"))
        #expect(capture.level == -160)
        try await capture.pause()
        try await capture.resume()
        try await sink.play(tone)
        let audio = try await capture.stop()
        let wav = try WAVReader(path: audio.file)
        #expect(wav.declaredDataBytes == wav.fileSize - 44)
        #expect(audio.duration > 1.8, "both tones should be in the file, got \(audio.duration) s")
        #expect(wav.peak > 10_000)
    }

    @Test func aLostServerConnectionIsReportedAndResumeConnectsAgain() async throws {
        let folder = TemporaryFolder()
        defer { folder.remove() }
        let (capture, event) = try await captureThenLose(into: folder, by: TestServer.killClient)
        let tone = try await TestSounds.tone(seconds: 1)

        guard case .lost(let message) = event else {
            Issue.record("expected a lost event, got \(String(describing: event))")
            return
        }
        #expect(message.contains("Lost the connection to the sound server"))
        try await capture.pause()
        try await capture.resume()
        try await sink.play(tone)
        let audio = try await capture.stop()
        #expect(audio.duration > 1.8, "both tones should be in the file, got \(audio.duration) s")
    }

    @Test func stopKeepsTheAudioAfterTheStreamWasLost() async throws {
        let folder = TemporaryFolder()
        defer { folder.remove() }
        let (capture, _) = try await captureThenLose(into: folder, by: TestServer.killRecordStream(of:))
        let audio = try await capture.stop()

        #expect(audio.duration > 0.9)
        #expect(try WAVReader(path: audio.file).peak > 10_000)
    }

    /// A capture of the mic under a client name of its own, started and fed a one-second tone,
    /// whose input `loss` then takes away (given that client name); and the event that reports it.
    private func captureThenLose(into folder: TemporaryFolder, by loss: (String) async throws -> Void) async throws
        -> (PulseCapture, CaptureEvent?)
    {
        let client = "NotulaTest-\(UUID())"
        let capture = PulseCapture(recordingsDirectory: folder.recordings, source: sink.monitor, applicationName: client)
        var events = capture.events.makeAsyncIterator()
        try await capture.start(recording: RecordingID("lost"), locale: "ko-KR")
        try await sink.play(try await TestSounds.tone(seconds: 1))
        try await loss(client)
        return (capture, await events.next())
    }
}
