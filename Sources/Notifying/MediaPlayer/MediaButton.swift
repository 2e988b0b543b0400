import DBus
import Recording

/// The player's buttons, as MPRIS names them: media keys and the desktop's media controls press them.
enum MediaButton: CaseIterable {
    case playPause, play, pause, stop

    var member: MemberName {
        switch self {
        case .playPause: "PlayPause"
        case .play: "Play"
        case .pause: "Pause"
        case .stop: "Stop"
        }
    }

    /// What the button does to a recording: Stop sends it, as a recording's end is its sending.
    var recordingAction: RecordingAction {
        switch self {
        case .playPause: .toggle
        case .play: .resume
        case .pause: .pause
        case .stop: .process
        }
    }
}
