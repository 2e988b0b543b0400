import Recording

/// What the tray item shows of the recorder: its StatusNotifierItem `Status`, icon and tooltip. Hosts hide or
/// tuck away a Passive item, so it steps forward only while a recording exists.
struct TrayPresentation: Equatable {
    enum Status: String {
        case passive = "Passive"
        case active = "Active"
    }

    let status: Status
    /// A name of the freedesktop icon theme; the symbolic ones are there in GNOME's, KDE's and XFCE's themes alike.
    let iconName: String
    let toolTipTitle: String
    /// The time recorded, as of the last transition, spelled out: hosts cannot count up. Below it, while a recording
    /// exists, the programs that also hear it.
    let toolTipBody: String

    init(state: RecordingState, elapsed: Duration, heardBy programs: [String] = [], texts: NotificationTexts) {
        status = state == .idle ? .passive : .active
        (iconName, toolTipTitle) =
            switch state {
            case .idle: ("audio-input-microphone-symbolic", texts.ready)
            case .recording: ("media-record-symbolic", texts.recording)
            case .paused: ("media-playback-pause-symbolic", texts.paused)
            case .processing: ("content-loading-symbolic", texts.transcribing)
            }
        // A tooltip's body may hold markup (Plasma renders it): a program's name is shown as written.
        toolTipBody = [
            state == .idle ? nil : texts.spelled(elapsed), texts.heardBy(programs, while: state).map(DesktopNotification.escape),
        ]
        .compactMap { $0 }.joined(separator: "\n")
    }
}
