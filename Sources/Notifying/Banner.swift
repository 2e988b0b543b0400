import Recording

/// How serious a banner is: its icon and urgency follow from it.
public enum BannerKind: Sendable {
    case info, warning, error

    var icon: String {
        switch self {
        case .info: "dialog-information"
        case .warning: "dialog-warning"
        case .error: "dialog-error"
        }
    }

    var urgency: Urgency {
        switch self {
        case .info: .low
        case .warning: .normal
        case .error: .critical
        }
    }
}

/// What a model installation reports to the user; a finished one says nothing (the model is simply there).
public enum DownloadEvent: Sendable, Equatable {
    case started(locale: String, name: String, bytes: UInt64)
    case cancelled(locale: String)
    case failed(locale: String, reason: String)
}

extension DesktopNotification {
    /// Banners go away by themselves after a few seconds where the server honours a timeout, and stay out of its history.
    static let bannerTimeout: Int32 = 6000

    static func banner(_ kind: BannerKind, _ summary: String, _ body: String) -> DesktopNotification {
        DesktopNotification(
            summary: summary, body: body, icon: kind.icon,
            hints: NotificationHints(urgency: kind.urgency, transient: true), expireTimeout: bannerTimeout)
    }

    static func download(_ event: DownloadEvent, texts: NotificationTexts) -> DesktopNotification {
        switch event {
        case .started(let locale, let name, let bytes):
            let megabytes = (bytes + 500_000) / 1_000_000
            return banner(.info, texts.downloadStarted(locale), bytes > 0 ? "\(name), \(megabytes) MB" : name)
        case .cancelled(let locale):
            return banner(.warning, texts.downloadCancelled(locale), texts.downloadAgain(locale))
        case .failed(let locale, let reason):
            return banner(.error, texts.downloadFailed(locale), reason + "\n" + texts.downloadAgain(locale))
        }
    }

    /// The transcription result, the text as the body. Unlike the other banners it is neither
    /// transient nor low: GNOME shows no banner at low urgency, and the user comes back to a
    /// result from the server's list to open it (its `default` action).
    static func transcribed(_ text: String, texts: NotificationTexts, capabilities: Set<String>) -> DesktopNotification {
        DesktopNotification(
            summary: texts.transcribed, body: text.isEmpty ? texts.noSpeech : text,
            icon: "dialog-information",
            actions: capabilities.contains("actions") ? [NotificationAction(defaultAction, texts.open)] : [],
            hints: NotificationHints(urgency: .normal, category: "x-notula.transcript"), expireTimeout: -1)
    }

    /// A failure no caller waits for, with the next step; nil for a refused action, which its caller already heard of.
    static func failure(_ error: RecordingError, locale: String, texts: NotificationTexts) -> DesktopNotification? {
        let summary: String
        let nextStep: String?
        switch error {
        case .invalidState: return nil
        case .deviceUnavailable: (summary, nextStep) = (texts.noMicrophone, texts.noMicrophoneNextStep)
        case .permissionDenied: (summary, nextStep) = (texts.notAllowed, texts.notAllowedNextStep)
        case .noSpace: (summary, nextStep) = (texts.diskFull, texts.diskFullNextStep)
        case .modelUnavailable: (summary, nextStep) = (texts.noModel(locale), texts.installModel(locale))
        case .engineUnavailable: (summary, nextStep) = (texts.noEngine, texts.noEngineNextStep)
        case .failed: (summary, nextStep) = (texts.recordingFailed, nil)
        }
        let body = [error.message, nextStep].compactMap { $0 }.joined(separator: "\n")
        return banner(.error, summary, body)
    }
}
