import DBus
import Synchronization

/// The language recordings are transcribed in: the recorder's `Locale`, kept in settings.json.
final class LocaleChoice: Sendable {
    private let value: Mutex<String>
    private let settingsFile: String
    /// The BCP 47 tags a model serves on this machine (and, with the catalog, can be installed).
    private let supported: @Sendable () -> [String]

    /// Told of every pick, to get its model ready.
    private let picked: @Sendable (String) -> Void

    init(
        initial: String, settingsFile: String, supported: @escaping @Sendable () -> [String],
        picked: @escaping @Sendable (String) -> Void
    ) {
        value = Mutex(initial)
        self.settingsFile = settingsFile
        self.supported = supported
        self.picked = picked
    }

    var current: String { value.withLock { $0 } }

    /// Picks `tag` (`ko-KR`, `ko_kr` alike) and keeps it in the settings.
    /// - Throws: `InvalidArgs` naming the supported tags when no model serves `tag`.
    func pick(_ tag: String) throws(BusError) {
        let wanted = tag.replacing("_", with: "-").lowercased()
        let available = supported()
        guard let match = available.first(where: { $0.lowercased() == wanted }) else {
            let choices = available.isEmpty ? "none yet: no speech model is installed" : available.joined(separator: ", ")
            throw BusError.invalidArgs("No speech model serves '\(tag)'. Supported: \(choices)")
        }
        value.withLock { $0 = match }
        picked(match)
        var settings = Settings.load(from: settingsFile)
        settings.locale = match
        do { try settings.save(to: settingsFile) } catch {
            Log.warning("Cannot keep the locale in \(settingsFile): \(error)")
        }
    }
}
