import Recording

/// The recording in progress, as the live notification shows it: no per-second updates (a
/// server cannot count up, and some re-alert on every replacement), so it shows a duration only
/// while none is counted (paused, transcribing) and the start as a time of day.
struct LiveRecording: Equatable {
    var recording: RecordingID?
    var state: RecordingState
    var pauseReason: PauseReason?
    var elapsed: Duration
    var start: ClockTime
    /// The programs that also hear it (`OpenAudio`, `WatchText`), named in the body.
    var heardBy: [String] = []
}

extension DesktopNotification {
    /// The key of the click on the notification itself (not a button).
    static let defaultAction = "default"

    /// The live notification of `recording`: the buttons that do something in its state, in the
    /// order toggle, process, discard (GNOME shows three at most), when the server has buttons.
    static func live(_ recording: LiveRecording, texts: NotificationTexts, capabilities: Set<String>) -> DesktopNotification {
        let summary =
            switch recording.state {
            case .recording: texts.recording
            case .paused: texts.pausedSummary(recording.pauseReason)
            case .idle, .processing: texts.transcribing
            }
        let buttons: [NotificationAction] = [
            NotificationAction(RecordingAction.toggle.rawValue, recording.state == .paused ? texts.resume : texts.pause),
            NotificationAction(RecordingAction.process.rawValue, texts.send),
            NotificationAction(RecordingAction.discard.rawValue, texts.discard),
        ]
        let allowed = recording.state.allowedActions.map(\.rawValue)
        return DesktopNotification(
            summary: summary,
            body: [
                recording.state == .recording
                    ? texts.recordingSince(recording.start.description)
                    : texts.recordedSince(texts.spelled(recording.elapsed), recording.start.description),
                texts.heardBy(recording.heardBy, while: recording.state),
            ].compactMap { $0 }.joined(separator: "\n"),
            icon: "audio-input-microphone",
            actions: capabilities.contains("actions") ? buttons.filter { allowed.contains($0.key) } : [],
            hints: NotificationHints(urgency: .normal, category: "x-notula.recording", resident: true, suppressSound: true),
            expireTimeout: 0)
    }
}

extension NotificationTexts {
    /// "Paused", or why something else paused it.
    func pausedSummary(_ reason: PauseReason?) -> String {
        switch reason {
        // A service that stops withdraws the live notification: it never shows that reason.
        case .user, .serviceStopped, nil: paused
        case .call: pausedForCall
        case .sleep: pausedForSleep
        case .inputLost: pausedInputLost
        case .diskFull: pausedDiskFull
        }
    }
}

extension DesktopNotification {
    /// The notification as the server takes it: summary and body escaped where the server reads
    /// markup, so that a transcript or a device name holding `<b>` or `&` shows literally (and a `<`
    /// does not swallow the rest).
    func escaped(for capabilities: Set<String>) -> DesktopNotification {
        guard capabilities.contains("body-markup") else { return self }
        var escaped = self
        escaped.summary = Self.escape(summary)
        escaped.body = Self.escape(body)
        return escaped
    }

    /// `&`, `<` and `>` as entities, for a server (or a tray host) that reads markup.
    static func escape(_ text: String) -> String {
        var escaped = ""
        escaped.reserveCapacity(text.utf8.count)
        for character in text {
            switch character {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            default: escaped.append(character)
            }
        }
        return escaped
    }
}
