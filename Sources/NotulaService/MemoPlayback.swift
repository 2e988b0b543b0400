import Audio
import DBus
import FoundationEssentials
import Library
import Recording

/// One memo plays at a time; the Library's `Playing` says which.
extension MemoLibrary {
    /// Plays the memo's audio, stopping the one playing.
    func play(_ id: String) throws(BusError) {
        guard let memo = summary(id) else { throw BusError(LibraryError.noSuchMemo(id)) }
        guard memo.status != .recording else { throw BusError(.invalidState, "The memo is still being recorded") }
        guard FileManager.default.fileExists(atPath: memo.audioFile) else {
            throw BusError(.notulaFailed, "The audio of memo \(id) is gone: \(memo.audioFile)")
        }
        playbackGeneration += 1
        let generation = playbackGeneration
        playback.play(memo.audioFile) { end in
            Task { await self.playbackEnded(generation, id: id, end) }
        }
        setPlaying(id)
        Log.info("Playing memo \(id)")
    }

    /// Stops the memo's playback; does nothing when it is not the one playing.
    func stopPlayback(_ id: String) {
        guard playing == id else { return }
        playback.stop()
    }

    private func playbackEnded(_ generation: Int, id: String, _ end: PlaybackEnd) {
        if case .failed(let message) = end { Log.warning("Playing memo \(id) failed: \(message)") }
        guard generation == playbackGeneration else { return }
        setPlaying(nil)
    }

    private func setPlaying(_ id: String?) {
        playing = id
        bus.assumeIsolated {
            $0.emitPropertiesChanged(path: NotulaBus.libraryPath, interface: NotulaBus.libraryInterface, names: ["Playing"])
        }
    }
}
