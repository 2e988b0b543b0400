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
        playbackPaused = false
        setPlaying(id)
        Log.info("Playing memo \(id)")
    }

    /// Holds the memo's playback, and returns once its sound has stopped: `playbackPosition` then stays where the
    /// speakers stopped until it goes on, and only then is it paused.
    /// - Throws: `notPlaying` when it is not the memo playing, or it ends first; `notHeld` when the sound server did
    ///   not hold it in time.
    public func pausePlayback(_ id: String) async throws(MemoError) {
        guard playing == id else { throw .notPlaying(id) }
        guard !playbackPaused else { return }
        let generation = playbackGeneration
        let answer = await playback.hold()
        guard generation == playbackGeneration, playing == id else { throw .notPlaying(id) }
        switch answer {
        case .held where !playbackPaused:
            playbackPaused = true
            tell(.playingChanged(id))
        case .held, .letGo: return
        case .ended: throw .notPlaying(id)
        case .timedOut: throw .notHeld(id)
        }
    }

    /// Lets the memo's playback go on from where it was held, or from where a pause under way holds it.
    /// - Throws: `notPlaying` when it is not the memo playing.
    public func resumePlayback(_ id: String) throws(MemoError) {
        guard playing == id else { throw .notPlaying(id) }
        playback.resume()
        guard playbackPaused else { return }
        playbackPaused = false
        tell(.playingChanged(id))
    }

    /// Goes on from `seconds` into the memo's audio (its end, past it), playing or held as it was.
    /// - Throws: `notPlaying` when it is not the memo playing.
    public func seekPlayback(_ id: String, to seconds: Double) throws(MemoError) {
        guard playing == id else { throw .notPlaying(id) }
        playback.seek(to: seconds)
    }

    /// Seconds of the memo's audio played so far; 0 when it is not the one playing.
    public func playbackPosition(_ id: String) -> Double {
        playing == id ? playback.position : 0
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
        if id == nil { playbackPaused = false }
        tell(.playingChanged(id))
    }
}
