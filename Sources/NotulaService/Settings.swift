import FoundationEssentials

/// The user's settings, from `settings.json`; every field optional.
public struct Settings: Codable, Sendable, Equatable {
    /// The PulseAudio source to record from; the server's default when absent.
    public var source: String?

    public init(source: String? = nil) { self.source = source }

    /// Reads the settings; a missing file gives the defaults, a broken one too, with a warning.
    public static func load(from path: String) -> Settings {
        guard let data = FileManager.default.contents(atPath: path) else { return Settings() }
        do {
            return try JSONDecoder().decode(Settings.self, from: data)
        } catch {
            Log.warning("Ignoring \(path): it is not valid settings JSON (\(error))")
            return Settings()
        }
    }
}
