/// How a playback ended.
public enum PlaybackEnd: Sendable, Equatable {
    /// The whole file was played.
    case finished
    /// `stop()` ended it, or another file took its place.
    case stopped
    /// The file could not be read, or the sound server refused the stream or lost it.
    case failed(String)
}

/// Plays one recording at a time: the seam through which the memos are heard without knowing the sound server
/// (the service hands in Audio's `PulsePlayback`).
public protocol SoundPlaying: Sendable {
    /// Starts playing `file`, stopping what plays now; `ended` is called once.
    func play(_ file: String, ended: @escaping @Sendable (PlaybackEnd) -> Void)
    /// Stops the playback in progress, if any.
    func stop()
    /// Holds the playback in progress where the speakers are, or lets it go on from there.
    func hold(_ held: Bool)
    /// Goes on from `seconds` into the recording (past its end: the end).
    func seek(to seconds: Double)
    /// Seconds of the recording played so far; 0 with nothing playing.
    var position: Double { get }
}
