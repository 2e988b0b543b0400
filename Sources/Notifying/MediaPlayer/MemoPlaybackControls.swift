import DBus

/// What the media player asks of the memo playing: the service binds these to its memo library, which the player
/// does not know. Each acts on the memo playing at the time, and does nothing when none is.
public struct MemoPlaybackControls: Sendable {
    /// Holds the playback where the speakers are (true), or lets it go on from there (false).
    let hold: @Sendable (Bool) -> Void
    /// Goes on from that far into the memo, playing or held as it was.
    let seek: @Sendable (Duration) -> Void
    /// How far into the memo the speakers are, now.
    let position: @Sendable () -> Duration
    /// Ends the playback.
    let stop: @Sendable () -> Void

    public init(
        hold: @escaping @Sendable (Bool) -> Void, seek: @escaping @Sendable (Duration) -> Void,
        position: @escaping @Sendable () -> Duration, stop: @escaping @Sendable () -> Void
    ) {
        self.hold = hold
        self.seek = seek
        self.position = position
        self.stop = stop
    }
}

/// The memo playing, as the media player shows it.
public struct MemoPlaybackSnapshot: Sendable, Equatable {
    /// The memo's object path: the track's `mpris:trackid`, which `SetPosition` names.
    let trackPath: ObjectPath
    /// What players show as the track's title.
    let title: String
    /// The memo's length, the track's `mpris:length`.
    let length: Duration
    /// Whether its playback is held.
    let paused: Bool

    public init(trackPath: ObjectPath, title: String, length: Duration, paused: Bool) {
        self.trackPath = trackPath
        self.title = title
        self.length = length
        self.paused = paused
    }
}
