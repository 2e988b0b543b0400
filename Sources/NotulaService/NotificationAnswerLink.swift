import Memos
import Notifying
import Recording
import Synchronization

/// Where a notification's answers go: the memo viewer and the access gate, both made after the notifier (the gate
/// asks through it; the viewer reads the library, whose models report through it), so connected once they exist.
final class NotificationAnswerLink: NotificationAnswers {
    private let targets = Mutex<(viewer: MemoViewer, gate: AccessGate)?>(nil)

    /// Set once, where the viewer and the gate are made.
    func connect(viewer: MemoViewer, gate: AccessGate) {
        targets.withLock { targets in
            precondition(targets == nil, "A notification's answers are connected once")
            targets = (viewer, gate)
        }
    }

    func open(_ recording: RecordingID) { targets.withLock { $0 }?.viewer.open(recording) }

    /// As `SetPermission` would decide it.
    func answer(app: String, allowed: Bool) {
        targets.withLock { $0 }?.gate.decide(app, allowed ? .allowed : .denied, how: "answered in the notification")
    }
}
