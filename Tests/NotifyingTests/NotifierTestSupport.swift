import Notifying

@testable import Recording

/// A notifier on a double, its server met, with its clock at 14:03.
func startedNotifier(_ server: NotificationServerDouble, texts: NotificationTexts = .english) async -> (Notifier, Sent) {
    let sent = Sent()
    let notifier = Notifier(
        isolation: TestIsolation(), server: server, texts: texts, controls: sent, answers: sent, clock: { ClockTime(hour: 14, minute: 3) },
        log: sent.write)
    await notifier.settle()
    return (notifier, sent)
}

func snapshot(_ state: RecordingState, seconds: Int64 = 0, recording: String = "1") -> RecorderSnapshot {
    RecorderSnapshot(
        state: state, elapsed: .seconds(seconds), timerAnchor: nil, recording: state == .idle ? nil : RecordingID(recording))
}

extension Notifier {
    /// Reports `snapshot` and waits until the server has been told.
    func report(_ snapshot: RecorderSnapshot) async {
        recordingChanged(snapshot)
        await settle()
    }
}
