import Audio
import FoundationEssentials
import Library
import Recording

/// One memo plays at a time; `playing` says which.
extension MemoLibrary {
    /// Plays the memo's audio, stopping the one playing.
    public func play(_ id: String) throws(MemoError) {
        guard let memo = summary(id) else { throw .noSuchMemo(id) }
        guard memo.status != .recording else { throw .stillRecording }
        guard FileManager.default.fileExists(atPath: memo.audioFile) else { throw .audioGone(memo: id, file: memo.audioFile) }
        playbackGeneration += 1
        let generation = playbackGeneration
        playback.play(memo.audioFile) { end in
            Task { await self.playbackEnded(generation, id: id, end) }
        }
        setPlaying(id)
        Log.info("Playing memo \(id)")
    }

    /// Stops the memo's playback; does nothing when it is not the one playing.
    public func stopPlayback(_ id: String) {
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
        tell(.playingChanged(id))
    }
}
