import FoundationEssentials
import Recording

/// Plays the memos' audio, one at a time, through the sound side handed in (`SoundPlaying`): which memo plays,
/// whether it is held, where it is. The library owns it and hands it the file of a memo it may play; the bus's and the
/// media player's buttons steer it directly. It shares the library's executor, so both are read synchronously.
public actor MemoPlayer {
    private let executor: UnownedSerialExecutor
    public nonisolated var unownedExecutor: UnownedSerialExecutor { executor }
    private let sound: any SoundPlaying
    /// Hears each change of the memo playing: the library's listener.
    private var listener: (any MemoListener)?
    /// The memo playing now.
    public private(set) var playing: String?
    /// Whether the memo playing is held where it is (`Pause`).
    public private(set) var isPaused = false
    /// Counts playbacks, so that the end of one replaced by another is not taken for the end of both.
    private var generation = 0

    init(executor: UnownedSerialExecutor, sound: any SoundPlaying) {
        self.executor = executor
        self.sound = sound
    }

    /// Tells `listener` of every change of the memo playing from now on.
    func report(to listener: any MemoListener) {
        self.listener = listener
    }

    /// Plays memo `id`'s audio `file`, stopping the one playing.
    func play(_ id: String, file: String) {
        generation += 1
        let generation = generation
        sound.play(file) { end in
            Task { await self.ended(generation, id: id, end) }
        }
        isPaused = false
        setPlaying(id)
        Log.info("Playing memo \(id)")
    }

    /// Holds the memo's playback, and returns once its sound has stopped: `position` then stays where the speakers
    /// stopped until it goes on, and only then is it paused.
    /// - Throws: `notPlaying` when it is not the memo playing, or it ends first; `notHeld` when the sound server did
    ///   not hold it in time.
    public func pause(_ id: String) async throws(MemoError) {
        guard playing == id else { throw .notPlaying(id) }
        guard !isPaused else { return }
        let generation = generation
        let answer = await sound.hold()
        guard generation == self.generation, playing == id else { throw .notPlaying(id) }
        switch answer {
        case .held where !isPaused:
            isPaused = true
            listener?.libraryChanged(.playingChanged(id))
        case .held, .letGo: return
        case .ended: throw .notPlaying(id)
        case .timedOut: throw .notHeld(id)
        }
    }

    /// Lets the memo's playback go on from where it was held, or from where a pause under way holds it.
    /// - Throws: `notPlaying` when it is not the memo playing.
    public func resume(_ id: String) throws(MemoError) {
        guard playing == id else { throw .notPlaying(id) }
        sound.resume()
        guard isPaused else { return }
        isPaused = false
        listener?.libraryChanged(.playingChanged(id))
    }

    /// Goes on from `seconds` into the memo's audio (its end, past it), playing or held as it was.
    /// - Throws: `notPlaying` when it is not the memo playing.
    public func seek(_ id: String, to seconds: Double) throws(MemoError) {
        guard playing == id else { throw .notPlaying(id) }
        sound.seek(to: seconds)
    }

    /// Seconds of the memo's audio played so far; 0 when it is not the one playing.
    public func position(_ id: String) -> Double {
        playing == id ? sound.position : 0
    }

    /// Stops the memo's playback; does nothing when it is not the one playing.
    public func stop(_ id: String) {
        guard playing == id else { return }
        sound.stop()
    }

    private func ended(_ generation: Int, id: String, _ end: PlaybackEnd) {
        if case .failed(let message) = end { Log.warning("Playing memo \(id) failed: \(message)") }
        guard generation == self.generation else { return }
        setPlaying(nil)
    }

    private func setPlaying(_ id: String?) {
        playing = id
        if id == nil { isPaused = false }
        listener?.libraryChanged(.playingChanged(id))
    }
}

extension MemoLibrary {
    /// Plays the memo's audio through `player`, stopping the one playing.
    /// - Throws: `noSuchMemo`, `stillRecording`, or `audioGone` when its audio file is.
    public func play(_ id: String) throws(MemoError) {
        guard let memo = summary(id) else { throw .noSuchMemo(id) }
        guard memo.status != .recording else { throw .stillRecording }
        guard FileManager.default.fileExists(atPath: memo.audioFile) else { throw .audioGone(memo: id, file: memo.audioFile) }
        player.assumeIsolated { $0.play(id, file: memo.audioFile) }
    }
}
