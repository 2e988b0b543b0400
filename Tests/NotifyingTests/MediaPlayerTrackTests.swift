import Recording
import Testing

@testable import Notifying

@Suite("The recording as a media player's track")
struct MediaPlayerTrackTests {
    @Test func playingWhileRecordingPausedWhilePausedWithTheTimeAsAClock() {
        let recording = MediaPlayerTrack(state: .recording, elapsed: .seconds(134), texts: .english)
        #expect(recording.playbackStatus == .playing)
        #expect(recording.title == "Recording — 2:14")
        let paused = MediaPlayerTrack(state: .paused, elapsed: .seconds(3723), texts: .dutch)
        #expect(paused.playbackStatus == .paused)
        #expect(paused.title == "Gepauzeerd — 1:02:03")
        #expect(MediaPlayerTrack(state: .processing, elapsed: .seconds(5), texts: .english).playbackStatus == .stopped)
        #expect(MediaPlayerTrack(state: .recording, elapsed: .seconds(9), texts: .english).title == "Recording — 0:09")
    }
}
