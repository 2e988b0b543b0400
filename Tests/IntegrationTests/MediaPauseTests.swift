import DBus
import Foundation
import NotulaTestSupport
import Testing

/// `pauseMedia`: the players playing when a recording starts are paused until it ends, and only those.
@Suite("Media players are quiet while recording", .serialized, .timeLimit(.minutes(2)))
struct MediaPauseTests {
    @Test func onlyThePlayingPlayersArePausedAndPlayedAgainWhenTheRecordingEnds() async throws {
        let daemon = try PrivateBus()
        let playing = try await MprisPlayerMock(on: daemon, suffix: "alpha", status: "Playing")
        let paused = try await MprisPlayerMock(on: daemon, suffix: "beta", status: "Paused")
        let unpausable = try await MprisPlayerMock(on: daemon, suffix: "gamma", status: "Playing", canPause: false)
        let service = try await ServiceUnderTest.start(on: daemon)

        try await service.recorder(.start)
        #expect(await playing.called("Pause"))
        #expect(try await playing.status() == "Paused")
        try await service.recorder(.discard)
        #expect(await playing.called("Play"))
        #expect(try await playing.status() == "Playing")
        #expect(try await paused.status() == "Paused", "paused by the user before: left paused")
        #expect(try await unpausable.status() == "Playing", "CanPause false: left alone")
        #expect(!service.log.contains("beta") && !service.log.contains("gamma"), "\(service.log)")
    }

    @Test func aPlayerTheUserPlaysMidRecordingIsNeitherPausedAgainNorPlayedAtTheEnd() async throws {
        let daemon = try PrivateBus()
        let alpha = try await MprisPlayerMock(on: daemon, suffix: "alpha", status: "Playing")
        // Played again after alpha: once it is, alpha was looked at.
        let zulu = try await MprisPlayerMock(on: daemon, suffix: "zulu", status: "Playing")
        let service = try await ServiceUnderTest.start(on: daemon)

        try await service.recorder(.start)
        #expect(await zulu.called("Pause"))
        try await alpha.play()
        try await service.recorder(.pause)
        try await service.recorder(.resume)
        try await service.recorder(.discard)
        #expect(await zulu.called("Play"))
        #expect(try await alpha.status() == "Playing")
        #expect(service.log.components(separatedBy: "Paused org.mpris.MediaPlayer2.alpha").count == 2, "paused once: \(service.log)")
        #expect(!service.log.contains("Played org.mpris.MediaPlayer2.alpha"), "\(service.log)")
    }
}
