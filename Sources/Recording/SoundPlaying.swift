/// How a playback ended.
public enum PlaybackEnd: Sendable, Equatable {
    /// The whole file was played.
    case finished
    /// `stop()` ended it, or another file took its place.
    case stopped
    /// The file could not be read, or the sound server refused the stream or lost it.
    case failed(String)
}

/// How a hold of the playback was answered.
public enum PlaybackHold: Sendable, Equatable {
    /// The sound server dropped what it had not played: the speakers are silent.
    case held
    /// Let go on before it held.
    case letGo
    /// Nothing plays, or the playback ended before it held.
    case ended
    /// The playback's thread did not hold in time (a write the sound server did not take): it goes on.
    case timedOut
}

/// Plays one recording at a time: the seam through which the memos are heard without knowing the sound server
/// (the service hands in Audio's `PulsePlayback`).
public protocol SoundPlaying: Sendable {
    /// Starts playing `file`, stopping what plays now; `ended` is called once.
    func play(_ file: String, ended: @escaping @Sendable (PlaybackEnd) -> Void)
    /// Stops the playback in progress, if any.
    func stop()
    /// Holds the playback in progress and returns once the speakers are silent and `position` is where they
    /// stopped; not held within `limit`, it goes on.
    func hold(within limit: Duration) async -> PlaybackHold
    /// Lets the playback in progress go on from where it was held.
    func resume()
    /// Goes on from `seconds` into the recording (past its end: the end).
    func seek(to seconds: Double)
    /// Seconds of the recording played so far; 0 with nothing playing.
    var position: Double { get }
}

extension SoundPlaying {
    /// Held within a second: the sound server drops what it holds in tens of milliseconds.
    public func hold() async -> PlaybackHold { await hold(within: .seconds(1)) }
}
