import Recording

/// The recording as an MPRIS player shows it: playing while recording, paused while paused, a title with the
/// time recorded as of the last transition ("Recording — 2:14": players show it as a track's title, without counting).
struct MediaPlayerTrack: Equatable {
    enum PlaybackStatus: String {
        case playing = "Playing"
        case paused = "Paused"
        case stopped = "Stopped"
    }

    let playbackStatus: PlaybackStatus
    let title: String

    init(state: RecordingState, elapsed: Duration, texts: NotificationTexts) {
        let (status, word): (PlaybackStatus, String) =
            switch state {
            case .recording: (.playing, texts.recording)
            case .paused: (.paused, texts.paused)
            case .processing: (.stopped, texts.transcribing)
            case .idle: (.stopped, texts.ready)
            }
        playbackStatus = status
        title = state == .idle ? word : "\(word) — \(clockText(seconds: Int(elapsed.components.seconds)))"
    }

}
