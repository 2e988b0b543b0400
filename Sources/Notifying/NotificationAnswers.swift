import Recording

/// What the user answers in a notification, besides the live notification's buttons (the recorder's controls).
public protocol NotificationAnswers: Sendable {
    /// The click on a result: the memo of `recording` opened.
    func open(_ recording: RecordingID)
    /// Allow (true) or Deny, the user's answer to an app's request to hear the recordings.
    func answer(app: String, allowed: Bool)
}
