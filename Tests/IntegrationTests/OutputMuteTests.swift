import Foundation
import NotulaTestSupport
import Testing

/// `muteOutput`: the sink the user hears is muted while recording and unmuted after, even after notulad was killed.
@Suite("The output muted while recording, never left muted", .serialized, .timeLimit(.minutes(3)))
struct OutputMuteTests {
    /// The sink the service takes for the user's (`PULSE_SINK`, as for its sounds): one of the test's own, beside the source's.
    private func start(hearing output: NullSink, home: URL? = nil) async throws -> ServiceUnderTest {
        try await ServiceUnderTest.start(environment: ["PULSE_SINK": output.name], settings: [#""muteOutput": true"#], home: home)
    }

    private func isMuted(_ sink: NullSink) throws -> Bool {
        let answer = try output(of: "pactl", "get-sink-mute", sink.name)
        guard answer.hasPrefix("Mute: ") else { throw MissingOutput() }
        return answer.hasPrefix("Mute: yes")
    }

    @Test func theOutputIsMutedWhileRecordingAndUnmutedWhenSent() async throws {
        let speakers = try await NullSink()
        let service = try await start(hearing: speakers)
        try await service.recorder(.start)
        try await service.waitForLog("Muted \(speakers.name) while recording")
        #expect(try isMuted(speakers))
        try await service.recorder(.pause)
        #expect(try isMuted(speakers), "paused, still recording")

        try await service.recorder(.discard)
        try await service.waitForLog("Unmuted \(speakers.name)")
        #expect(try !isMuted(speakers))
    }

    @Test func aSinkTheUserMutedStaysMuted() async throws {
        let speakers = try await NullSink()
        _ = try output(of: "pactl", "set-sink-mute", speakers.name, "1")
        let service = try await start(hearing: speakers)
        try await service.recorder(.start)
        try await service.waitForLog("\(speakers.name) is muted already")
        _ = try await service.recorder(.process)
        // Its exit is the last chance to unmute: once it is gone, every unmute it would make is made.
        #expect(service.stop() == 0)
        #expect(try isMuted(speakers))
        #expect(!service.log.contains("Unmuted"), "not Notula's to unmute")
    }

    @Test func aKilledServiceUnmutesAtItsNextStart() async throws {
        let speakers = try await NullSink()
        let service = try await start(hearing: speakers)
        try await service.recorder(.start)
        try await service.waitForLog("Muted \(speakers.name) while recording")
        #expect(service.stop(with: SIGKILL) == SIGKILL)
        #expect(try isMuted(speakers), "killed: nothing could unmute it")

        // Started again without the setting, and hearing another sink: what was muted is unmuted all the same.
        let again = try await ServiceUnderTest.start(home: service.home)
        try await again.waitForLog("Unmuted \(speakers.name)")
        #expect(try !isMuted(speakers))
        #expect(!FileManager.default.fileExists(atPath: service.home.appendingPathComponent("data/notula/muted-outputs").path))
    }

    @Test func aSinkTheUserUnmutedAndMutedAgainWhileRecordingIsTheirs() async throws {
        let speakers = try await NullSink()
        let service = try await start(hearing: speakers)
        try await service.recorder(.start)
        try await service.waitForLog("Muted \(speakers.name) while recording")
        _ = try output(of: "pactl", "set-sink-mute", speakers.name, "0")
        try await service.waitForLog("\(speakers.name) was changed by the user while muted")
        _ = try output(of: "pactl", "set-sink-mute", speakers.name, "1")
        #expect(service.stop(with: SIGKILL) == SIGKILL)

        // The next start finds nothing of Notula's to unmute: the mute is the user's own.
        let again = try await ServiceUnderTest.start(home: service.home)
        // Its exit waits for what its start queued: by then any unmute it would make is made.
        #expect(again.stop() == 0)
        #expect(try isMuted(speakers))
        #expect(!again.log.contains("Unmuted"), "\(again.log)")
    }

    @Test func aSinkWhoseVolumeChangedAfterACrashIsLeftAsItIs() async throws {
        let speakers = try await NullSink()
        let service = try await start(hearing: speakers)
        try await service.recorder(.start)
        try await service.waitForLog("Muted \(speakers.name) while recording")
        #expect(service.stop(with: SIGKILL) == SIGKILL)
        // While no notulad runs, the user sets the volume of the muted sink: they have taken it over.
        _ = try output(of: "pactl", "set-sink-volume", speakers.name, "40%")

        let again = try await ServiceUnderTest.start(home: service.home)
        try await again.waitForLog("\(speakers.name) was changed since Notula muted it: left as it is")
        #expect(try isMuted(speakers))
        #expect(!again.log.contains("Unmuted"))
        #expect(!FileManager.default.fileExists(atPath: service.home.appendingPathComponent("data/notula/muted-outputs").path))
    }
}
