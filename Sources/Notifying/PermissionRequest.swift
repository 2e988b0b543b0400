extension DesktopNotification {
    private static let allowKey = "allow"
    private static let denyKey = "deny"

    /// Asks whether the sandboxed `app` may hear the recordings. It stays until answered (a missed one is
    /// asked again at the app's next request); without buttons its body says how to answer from a terminal.
    static func permissionRequest(_ app: String, texts: NotificationTexts, capabilities: Set<String>) -> DesktopNotification {
        DesktopNotification(
            summary: texts.wantsToHear(app), body: texts.wantsToHearBody(app), icon: "audio-input-microphone",
            actions: capabilities.contains("actions")
                ? [NotificationAction(allowKey, texts.allow), NotificationAction(denyKey, texts.deny)] : [],
            hints: NotificationHints(urgency: .normal, category: "x-notula.permission"), expireTimeout: 0)
    }

    /// Allow (true) or Deny (false) for a button's key; nil for another (a click on the notification itself).
    static func permissionAnswer(_ key: String) -> Bool? {
        switch key {
        case allowKey: true
        case denyKey: false
        default: nil
        }
    }
}
