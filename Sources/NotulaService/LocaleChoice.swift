import DBus
import Recording
import Synchronization

/// The language recordings are transcribed in: the recorder's `Locale`, kept in settings.json.
final class LocaleChoice: Sendable {
    private let value: Mutex<String>
    private let settingsFile: String

    init(initial: String, settingsFile: String) {
        value = Mutex(initial)
        self.settingsFile = settingsFile
    }

    var current: String { value.withLock { $0 } }

    /// Makes `locale` (a supported tag) the current one and keeps it in the settings.
    func pick(_ locale: String) {
        value.withLock { $0 = locale }
        Settings.update(at: settingsFile) { $0.locale = locale }
    }
}
