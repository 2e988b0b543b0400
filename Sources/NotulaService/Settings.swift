import Audio
import FoundationEssentials
import Recording

#if canImport(Glibc)
    import Glibc
#endif

/// The user's settings, from `settings.json`; every field optional.
public struct Settings: Codable, Sendable, Equatable {
    /// The PulseAudio source to record from; the server's default when absent.
    public var source: String?
    /// The BCP 47 tag recordings are transcribed in; from the user's locale when absent.
    public var locale: String?
    /// Seconds a loaded speech model (a few hundred MB) stays in memory unused; 10 minutes when absent.
    public var modelIdleSeconds: Double?
    /// Where Vosk's model catalog is fetched from (a URL or a path); Vosk's own address when absent.
    public var modelCatalog: String?
    /// Whether a recording under way is also an MPRIS media player (media keys, lock screens); off when absent.
    public var mpris: Bool?
    /// Seconds of audio one memo holds at most: a longer recording goes on, without a gap, as a new
    /// memo. What a WAV file holds (about 37 hours) when absent, and at most.
    public var longestMemoSeconds: Double?

    public init(
        source: String? = nil, locale: String? = nil, modelIdleSeconds: Double? = nil, modelCatalog: String? = nil, mpris: Bool? = nil,
        longestMemoSeconds: Double? = nil
    ) {
        self.source = source
        self.locale = locale
        self.modelIdleSeconds = modelIdleSeconds
        self.modelCatalog = modelCatalog
        self.mpris = mpris
        self.longestMemoSeconds = longestMemoSeconds
    }

    /// How long a loaded speech model stays in memory unused.
    public var modelIdleRelease: Duration { .seconds(max(0, modelIdleSeconds ?? 600)) }

    /// The most sample bytes of one memo's file (16 kHz, 16-bit mono): at least a second, at most a WAV file's.
    public var memoLengthLimit: UInt64 {
        guard let seconds = longestMemoSeconds, seconds.isFinite else { return WAVHeader.largestDataSize }
        return min(UInt64(max(1, seconds) * Double(RecordingFormat.bytesPerSecond)), WAVHeader.largestDataSize)
    }

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

    /// Writes the settings at once or not at all (a new file renamed over the old), readable by
    /// the user only from its first byte, in a folder only the user can enter.
    public func save(to path: String) throws(FileError) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        let bytes: [UInt8]
        do { bytes = Array(try encoder.encode(self)) } catch { throw FileError(path: path, code: EINVAL) }
        try PrivateFiles.replace(path, with: bytes)
    }
}
