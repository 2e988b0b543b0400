import Memos
import Notifying
import Recording

/// Reports the flow as desktop notifications. The notifier shares the bus's executor, which is
/// the recorder's: each report reaches it synchronously and returns at once, the server being
/// called from the notifier's own chain.
struct NotificationReporter: Reporting {
    let notifier: Notifier
    let memos: MemoLibrary

    func stateChanged(_ snapshot: RecorderSnapshot) {
        notifier.assumeIsolated { $0.recordingChanged(snapshot) }
    }

    /// The notification shows the time as of the last transition: a timer starting is none.
    func timerStarted(_ snapshot: RecorderSnapshot) {}

    /// The text goes to the user's own notification server, on their screen; never into a signal,
    /// which every listener on the session bus receives.
    func processed(_ recording: RecordingID) {
        let text = memos.assumeIsolated { $0.text(of: recording) } ?? ""
        notifier.assumeIsolated { $0.transcribed(recording, text: text) }
    }

    func inputMoved(to source: String) {
        notifier.assumeIsolated { $0.inputMoved(to: source) }
    }

    /// The banner names the recording's locale, not the one picked since.
    func failed(_ error: RecordingError, locale: String) {
        notifier.assumeIsolated { $0.failed(error, locale: locale) }
    }
}
