import DBus
import Foundation
import NotulaContract
import NotulaTestSupport
import TestPasses
import Testing

/// Another application's call (a stream with `media.role=phone`) on a PulseAudio server of the
/// test's own, so that no other test's recording hears it.
@Suite("A call pauses the recording and its end resumes it", .serialized, .tags(.reliability))
struct CallTests {
    private static let recording = RecorderEvent.state("recording", reason: "")
    private static let pausedForCall = RecorderEvent.state("paused", reason: "call")

    @Test func aPhonePlaybackPausesAndItsEndResumes() async throws {
        let sound = try await PrivateSoundServer()
        var watched = try await WatchedRecording.start(on: sound)
        let (service, notifications) = (watched.service, watched.notifications)

        let call = try sound.play(try silence(seconds: 1), properties: ["media.role=phone"])
        #expect(await watched.events.events(until: Self.recording) == [Self.pausedForCall, Self.recording])
        #expect(await notifications.nextNotification()?.summary == "Paused for a call")
        #expect(await notifications.nextNotification()?.summary == "Recording")
        call.waitUntilExit()

        let memo = try await service.recorder(.process).argument(0, as: ObjectPath.self)
        _ = await watched.events.events(until: .state("idle", reason: ""))
        guard case .string(let path) = try await service.property(.audioFile, of: memo) else {
            Issue.record("no audio file")
            return
        }
        let wav = try WAVReader(path: path)
        #expect(wav.declaredDataBytes == wav.samples.count * 2)
    }

    @Test func aPhoneCaptureStreamPausesUntilItClosesAndTheNotificationSaysSoInDutch() async throws {
        let sound = try await PrivateSoundServer()
        var watched = try await WatchedRecording.start(on: sound, environment: ["LANGUAGE": "nl"], firstSummary: "Opname")
        let (service, notifications) = (watched.service, watched.notifications)

        let call = try sound.record(properties: ["media.role=phone"])
        #expect(await watched.events.events(until: Self.pausedForCall) == [Self.pausedForCall])
        #expect(try await service.property(.pauseReason) == .string("call"))
        #expect(await notifications.nextNotification()?.summary == "Gepauzeerd voor een gesprek")
        kill(call.processIdentifier, SIGKILL)
        call.waitUntilExit()
        #expect(await watched.events.events(until: Self.recording) == [Self.recording])
        #expect(try await service.property(.pauseReason) == .string(""))
        try await service.recorder(.discard)
    }

    @Test func aCallAlreadyOnWhenTheRecordingStartsDoesNotPauseIt() async throws {
        let sound = try await PrivateSoundServer()
        // The service connects to the server at its first recording: a call in progress then is the user's choice.
        let call = try sound.record(properties: ["media.role=phone"])
        defer {
            kill(call.processIdentifier, SIGKILL)
            call.waitUntilExit()
        }
        let service = try await ServiceUnderTest.start(.named("mic.monitor"), environment: ["PULSE_SERVER": sound.address])
        var events = try await service.recorderSignals().makeAsyncIterator()
        try await service.recorder(.start)
        // A second call stream changes nothing either: the call was on before.
        let second = try sound.play(try silence(seconds: 0.5), properties: ["media.role=phone"])
        second.waitUntilExit()
        try await service.recorder(.pause)
        #expect(await events.events(until: .state("paused", reason: "user")) == [Self.recording, .state("paused", reason: "user")])
        try await service.recorder(.discard)
    }
}
