import Recording

/// Every text a notification shows, in one language. Each language is one table (`english`,
/// `dutch`), so that a translator finds all of it in one place.
public struct NotificationTexts: Sendable {
    /// A unit's singular and plural: "1 minute", "2 minutes".
    public struct Unit: Sendable {
        let one: String
        let many: String
    }

    // The live notification.
    let recording: String
    let paused: String
    /// The summary of a recording paused by something else than the user, by reason.
    let pausedForCall: String
    let pausedForSleep: String
    let pausedInputLost: String
    let pausedDiskFull: String
    let transcribing: String
    /// The body while recording: the wall-clock time the recording started (a duration would be
    /// wrong a second later, as the notification is not replaced every second).
    let recordingSince: @Sendable (_ start: String) -> String
    /// The body while paused or transcribing: the duration recorded, and when the recording started.
    let recordedSince: @Sendable (_ duration: String, _ start: String) -> String
    /// The programs that hear the recording as it happens besides Notula (`OpenAudio`, `WatchText`), named; also in
    /// the tray's tooltip.
    let alsoHeardBy: @Sendable (_ programs: String) -> String
    let pause: String
    let resume: String
    let send: String
    let discard: String
    let hours: Unit
    let minutes: Unit
    let seconds: Unit

    // Banners.
    let downloadStarted: @Sendable (_ locale: String) -> String
    let downloadCancelled: @Sendable (_ locale: String) -> String
    let downloadFailed: @Sendable (_ locale: String) -> String
    /// The next step after a cancelled or failed download.
    let downloadAgain: @Sendable (_ locale: String) -> String
    let transcribed: String
    /// The click on a result: it opens the memo's text.
    let open: String
    let noSpeech: String
    /// The warning that the recording goes on from another source, named.
    let inputMoved: @Sendable (_ source: String) -> String
    let inputMovedBody: String

    // Failures: a summary, and the next step the body ends with.
    let noMicrophone: String
    let noMicrophoneNextStep: String
    let notAllowed: String
    let notAllowedNextStep: String
    let noModel: @Sendable (_ locale: String) -> String
    let installModel: @Sendable (_ locale: String) -> String
    let noEngine: String
    let noEngineNextStep: String
    let diskFull: String
    let diskFullNextStep: String
    let recordingFailed: String
    /// The memo's text could not be typed or put on the clipboard; the body says why and what to do.
    let notDelivered: String
    /// Spoken line breaks were typed as spaces: in a terminal (by its process name), or where the window is not known.
    let newLinesAsSpaces: String
    let newLinesInTerminal: @Sendable (_ terminal: String) -> String
    let newLinesInUnknownWindow: String

    // A sandboxed app's request to hear the recordings, named by its app id.
    let wantsToHear: @Sendable (_ app: String) -> String
    /// What the app would have, and how to answer or take it back from a terminal.
    let wantsToHearBody: @Sendable (_ app: String) -> String
    let allow: String
    let deny: String

    // Panels: the tray item's tooltip and menu, the media player's title.
    /// The tooltip's title while no recording exists.
    let ready: String
    let record: String
    let language: String
    /// A locale whose model is not on this machine: picking it downloads it.
    let notInstalled: @Sendable (_ locale: String) -> String

    /// "Also heard by: A, B" while a recording exists and somebody listens; nil otherwise.
    func heardBy(_ programs: [String], while state: RecordingState) -> String? {
        guard state == .recording || state == .paused, !programs.isEmpty else { return nil }
        return alsoHeardBy(programs.joined(separator: ", "))
    }

    /// A duration spelled for reading: "2 minutes 14 seconds", whole seconds, zero parts left out.
    public func spelled(_ duration: Duration) -> String {
        let total = max(0, duration.components.seconds)
        let parts = [(total / 3600, hours), (total / 60 % 60, minutes), (total % 60, seconds)].filter { $0.0 > 0 }
        guard !parts.isEmpty else { return "0 \(seconds.many)" }
        return parts.map { count, unit in "\(count) \(count == 1 ? unit.one : unit.many)" }.joined(separator: " ")
    }

    /// The table for the user's language: the first of `LANGUAGE` (a list), `LC_ALL`, `LC_MESSAGES` and `LANG` that is set, as
    /// gettext reads them; English when that language has no table.
    public static func forEnvironment(_ environment: [String: String]) -> NotificationTexts {
        let languages =
            ["LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"].lazy.compactMap { environment[$0] }.first { !$0.isEmpty }?.split(separator: ":")
            ?? []
        for language in languages {
            let code = language.prefix { $0.isLetter }.lowercased()
            if code == "nl" { return .dutch }
            if code == "en" { return .english }
        }
        return .english
    }
}
