import DBus
import Foundation
import NotulaContract
import NotulaTestSupport
import TestPasses
import Testing

/// The microphone or the sound server going away under a recording, on a PulseAudio server of
/// the test's own (killed and started again here).
@Suite("A lost microphone pauses with Failed and keeps the audio; a moved one goes on", .serialized, .tags(.reliability))
struct LostInputTests {
    private static let recording = RecorderEvent.state("recording", reason: "")

    @Test func aSourceThatGoesAwayMovesTheRecordingWithAWarningNamingTheNewSource() async throws {
        let sound = try await PrivateSoundServer()
        let desk = try sound.pactl("load-module", "module-null-sink", "sink_name=desk", "rate=16000", "channels=1")
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let watched = try await WatchedRecording.start(on: sound, source: "desk.monitor")
        let (service, notifications) = (watched.service, watched.notifications)

        try sound.pactl("unload-module", desk)
        let warning = try #require(await notifications.nextNotification())
        #expect(warning.summary == "Recording from mic.monitor now")
        #expect(warning.icon == "dialog-warning")
        #expect(try await service.property(.state) == .string("recording"))
        try await service.recorder(.discard)
    }

    @Test func aKilledStreamPausesWithFailedAndResumeReopensIt() async throws {
        let sound = try await PrivateSoundServer()
        var watched = try await WatchedRecording.start(on: sound)
        let (service, notifications) = (watched.service, watched.notifications)

        try sound.killRecordStream(of: "Notula")
        let lost = await watched.events.events { if case .failed = $0 { true } else { false } }
        #expect(lost.first == .state("paused", reason: "input-lost"))
        guard case .failed(let name, let message)? = lost.last else { Issue.record("no Failed: \(lost)"); return }
        #expect(name == NotulaErrorName.deviceUnavailable.rawValue.rawValue && message.contains("Lost the audio input"), "\(message)")
        #expect(await notifications.nextNotification()?.summary == "Paused: the microphone went away")
        #expect(await notifications.nextNotification()?.summary == "No microphone")

        try await service.recorder(.resume)
        #expect(try await service.property(.state) == .string("recording"))
        try await service.recorder(.discard)
    }

    @Test func aKilledServerPausesWithFailedKeepsAValidWAVAndResumeReconnectsOnceItIsBack() async throws {
        let sound = try await PrivateSoundServer()
        var watched = try await WatchedRecording.start(on: sound)
        let (service, notifications) = (watched.service, watched.notifications)
        try sound.play(try silence(seconds: 0.5)).waitUntilExit()

        try await sound.kill()
        let lost = await watched.events.events { if case .failed = $0 { true } else { false } }
        #expect(lost.first == .state("paused", reason: "input-lost"))
        guard case .failed(let name, let message)? = lost.last else { Issue.record("no Failed: \(lost)"); return }
        #expect(name == NotulaErrorName.deviceUnavailable.rawValue.rawValue)
        #expect(message.contains("Lost the connection to the sound server"), "\(message)")
        #expect(await notifications.nextNotification()?.summary == "Paused: the microphone went away")
        let banner = try #require(await notifications.nextNotification())
        #expect(banner.summary == "No microphone" && banner.icon == "dialog-error")

        // The audio so far is on disk as a valid WAV while the recording waits.
        let file = try #require(try FileManager.default.contentsOfDirectory(atPath: service.recordingsFolder.path).first)
        let kept = try WAVReader(path: service.recordingsFolder.appendingPathComponent(file).path)
        #expect(kept.declaredDataBytes == kept.fileSize - 44 && kept.duration > 0.4, "\(kept.duration) s")

        // No server: Resume says so and the recording stays paused.
        await #expect(throws: BusError.self) { try await service.recorder(.resume) }
        #expect(try await service.property(.state) == .string("paused"))

        try await sound.start()
        try await service.recorder(.resume)
        #expect(try await service.property(.state) == .string("recording"))
        try sound.play(try silence(seconds: 0.5)).waitUntilExit()
        let memo = try await service.recorder(.process).argument(0, as: ObjectPath.self)
        let ended = await watched.events.events(until: .state("idle", reason: ""))
        #expect(ended.contains(Self.recording))
        guard case .string(let path) = try await service.property(.audioFile, of: memo) else {
            Issue.record("no audio file")
            return
        }
        let wav = try WAVReader(path: path)
        #expect(wav.declaredDataBytes == wav.samples.count * 2)
        #expect(wav.duration > kept.duration + 0.4, "the audio after the reconnection is in the same file")
    }
}
