import Recording
import Synchronization

/// Which connection started the recording under way over the bus, so that `Dictate` from another (or during a
/// recording the tray, a notification or a shortcut started) cannot take it over and send its words elsewhere.
final class RecordingStarter: Sendable {
    private let started = Mutex<(caller: String, recording: RecordingID)?>(nil)

    /// Notes `caller` as the starter when its call made `after` the recording, where `before` was none or another.
    func note(_ caller: String?, before: RecordingID?, after: RecordingID?) {
        guard let after, after != before else { return }
        started.withLock { $0 = caller.map { ($0, after) } }
    }

    /// Whether `caller` started `recording` over the bus.
    func started(_ recording: RecordingID, by caller: String?) -> Bool {
        started.withLock { started in started.map { $0.caller == caller && $0.recording == recording } ?? false }
    }
}
