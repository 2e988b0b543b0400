import FoundationEssentials
import Memos
import Recording
import Synchronization
import Testing

/// The library's player over a sound double that plays nothing: which memo plays, and what the listener hears.
@Suite("Playing memos, one at a time")
struct MemoPlayerTests {
    @Test("The end of a playback another replaced is not taken for the end of the one playing")
    func aReplacedPlaybacksEndLeavesTheNextPlaying() async throws {
        let folder = try MemoFolder()
        let sound = SoundDouble()
        let library = try await folder.library(sound: sound)
        let first = try await folder.sentMemo("1700000000000000", in: library)
        let second = try await folder.sentMemo("1700000000000001", in: library)

        try await library.play(first)
        try await library.play(second)
        sound.end(0, .stopped)
        let stoppedBoth = await folder.events.wait(timeout: .milliseconds(500)) { $0.contains(.playingChanged(nil)) }
        #expect(!stoppedBoth, "the first one's end, come after the second began, ended nothing")
        #expect(await library.player.playing == second)
        sound.end(1, .finished)
        #expect(await folder.events.wait { $0.last == .playingChanged(nil) })
        #expect(await library.player.playing == nil)
        #expect(sound.files == [folder.recordings + "/\(first).wav", folder.recordings + "/\(second).wav"])
    }

    @Test("A pause the sound server holds is told; one it does not hold in time is refused, and the memo plays on")
    func aPauseIsToldOnceHeld() async throws {
        let folder = try MemoFolder()
        let sound = SoundDouble()
        let library = try await folder.library(sound: sound)
        let memo = try await folder.sentMemo("1700000000000000", in: library)
        try await library.play(memo)

        sound.holds(.timedOut)
        await #expect(throws: MemoError.notHeld(memo)) { try await library.player.pause(memo) }
        #expect(await !library.player.isPaused)
        sound.holds(.held)
        try await library.player.pause(memo)
        #expect(await library.player.isPaused)
        #expect(folder.events.all.filter { $0 == .playingChanged(memo) }.count == 2, "played, then paused")
        try await library.player.resume(memo)
        #expect(await !library.player.isPaused)
        await #expect(throws: MemoError.notPlaying("1")) { try await library.player.pause("1") }
    }

    @Test("Deleting the memo playing stops its sound")
    func deletingTheMemoPlayingStopsIt() async throws {
        let folder = try MemoFolder()
        let sound = SoundDouble()
        let library = try await folder.library(sound: sound)
        let memo = try await folder.sentMemo("1700000000000000", in: library)
        try await library.play(memo)
        try await library.delete(memo)
        #expect(sound.stops == 1)
    }
}

extension MemoFolder {
    /// A memo recorded and processed, its audio a file of a few bytes.
    func sentMemo(_ id: String, in library: MemoLibrary) async throws -> String {
        #expect(await startCapture(id, in: library))
        let audio = recordings + "/\(id).wav"
        #expect(touch(audio))
        try await library.process(CapturedAudio(file: audio, duration: 1), recording: RecordingID(id))
        return id
    }
}

/// Plays nothing: records what it was asked, ends a playback when the test says, holds as told.
private final class SoundDouble: SoundPlaying {
    private struct State {
        var files: [String] = []
        var endings: [@Sendable (PlaybackEnd) -> Void] = []
        var hold = PlaybackHold.held
        var stops = 0
    }
    private let state = Mutex(State())

    var files: [String] { state.withLock { $0.files } }
    var stops: Int { state.withLock { $0.stops } }

    func play(_ file: String, ended: @escaping @Sendable (PlaybackEnd) -> Void) {
        state.withLock {
            $0.files.append(file)
            $0.endings.append(ended)
        }
    }

    /// Ends the `index`th playback begun.
    func end(_ index: Int, _ end: PlaybackEnd) { state.withLock { $0.endings[index] }(end) }
    /// What the next holds answer.
    func holds(_ answer: PlaybackHold) { state.withLock { $0.hold = answer } }

    func stop() { state.withLock { $0.stops += 1 } }
    func hold(within limit: Duration) async -> PlaybackHold { state.withLock { $0.hold } }
    func resume() {}
    func seek(to seconds: Double) {}
    var position: Double { 0 }
}
