import Audio
import Dictating
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
    /// Other languages the user speaks (the recorder's `AlsoSpoken`), as BCP 47 tags: a multilingual accurate model
    /// writes each utterance in the likeliest of them and `locale`; none when absent.
    public var alsoSpoken: [String]?
    /// Seconds a loaded speech model (a few hundred MB) stays in memory unused; 10 minutes when absent.
    public var modelIdleSeconds: Double?
    /// Where Vosk's model catalog is fetched from (a URL or a path); Vosk's own address when absent.
    public var modelCatalog: String?
    /// Whether a recording under way is also an MPRIS media player (media keys, lock screens); off when absent.
    public var mpris: Bool?
    /// Seconds of audio one memo holds at most: a longer recording goes on, without a gap, as a new
    /// memo. What a WAV file holds (about 37 hours) when absent, and at most.
    public var longestMemoSeconds: Double?
    /// Where a processed memo's text goes besides the library (the recorder's `Output`); `memo` when absent.
    public var output: String?
    /// How text is typed (the recorder's `Typing`); `auto` when absent.
    public var typing: String?
    /// Whether delivered text is followed by a space, so that dictations join into sentences; true when absent.
    public var spaceAfterText: Bool?
    /// Seconds of quiet after speech that send a recording by itself (the recorder's `SilenceSeconds`); off when absent.
    public var silenceSeconds: Double?
    /// Whether, with `output` type, each utterance is typed as it ends (the recorder's `Live`); off when absent.
    public var live: Bool?
    /// dBFS: louder is speech in `OpenAudio`'s `vad` form; −40 when absent.
    public var vadSilenceThreshold: Double?
    /// Seconds of quiet that end a stretch of speech in `OpenAudio`'s `vad` form; 0.8 when absent.
    public var vadSilenceSeconds: Double?
    /// Whether the media players playing when a recording starts are paused until it ends; true when absent.
    public var pauseMedia: Bool?
    /// Whether the sink the user hears is muted while a recording runs; false when absent.
    public var muteOutput: Bool?
    /// Whether short sounds tell the input open, a pause, the text ready and a failure; true when absent.
    public var sounds: Bool?
    /// Whether "Toggle recording" and "Hold to talk" are bound through the desktop's GlobalShortcuts portal; true when absent.
    public var globalShortcuts: Bool?
    /// The model recordings use per locale (`UseModel`): locale → model name; a locale's best model on disk when absent.
    public var models: [String: String]?
    /// The Whisper model that writes each utterance again per locale (`UseModel` with a Whisper model): none when absent.
    public var accurateModels: [String: String]?
    /// What the user decided for each sandboxed app (`SetPermission`): app id → "allowed" or "denied"; none decided when absent.
    public var appPermissions: [String: String]?

    public init(
        source: String? = nil, locale: String? = nil, alsoSpoken: [String]? = nil, modelIdleSeconds: Double? = nil, modelCatalog: String? = nil, mpris: Bool? = nil,
        longestMemoSeconds: Double? = nil, output: String? = nil, typing: String? = nil, spaceAfterText: Bool? = nil,
        silenceSeconds: Double? = nil, live: Bool? = nil, vadSilenceThreshold: Double? = nil, vadSilenceSeconds: Double? = nil,
        pauseMedia: Bool? = nil, muteOutput: Bool? = nil, sounds: Bool? = nil,
        globalShortcuts: Bool? = nil, models: [String: String]? = nil, accurateModels: [String: String]? = nil,
        appPermissions: [String: String]? = nil
    ) {
        self.source = source
        self.locale = locale
        self.alsoSpoken = alsoSpoken
        self.modelIdleSeconds = modelIdleSeconds
        self.modelCatalog = modelCatalog
        self.mpris = mpris
        self.longestMemoSeconds = longestMemoSeconds
        self.output = output
        self.typing = typing
        self.spaceAfterText = spaceAfterText
        self.silenceSeconds = silenceSeconds
        self.live = live
        self.vadSilenceThreshold = vadSilenceThreshold
        self.vadSilenceSeconds = vadSilenceSeconds
        self.pauseMedia = pauseMedia
        self.muteOutput = muteOutput
        self.sounds = sounds
        self.globalShortcuts = globalShortcuts
        self.models = models
        self.accurateModels = accurateModels
        self.appPermissions = appPermissions
    }

    /// A model kept for up to a year unused; longer is no setting anyone means (and past 10^20 s no `Duration` holds it).
    static let modelIdleRange: ClosedRange<Double> = 0...31_536_000
    static let defaultModelIdleSeconds: Double = 600
    /// From a second to what a WAV file holds.
    static let longestMemoRange: ClosedRange<Double> =
        1...(Double(WAVHeader.largestDataSize) / Double(RecordingFormat.bytesPerSecond)).rounded(.down)

    /// How long a loaded speech model stays in memory unused.
    public var modelIdleRelease: Duration {
        .seconds(modelIdleSeconds.flatMap { Self.modelIdleRange.contains($0) ? $0 : nil } ?? Self.defaultModelIdleSeconds)
    }

    /// The most sample bytes of one memo's file (16 kHz, 16-bit mono): at least a second, at most a WAV file's.
    public var memoLengthLimit: UInt64 {
        guard let seconds = longestMemoSeconds, Self.longestMemoRange.contains(seconds) else { return WAVHeader.largestDataSize }
        return min(UInt64(seconds * Double(RecordingFormat.bytesPerSecond)), WAVHeader.largestDataSize)
    }

    /// Reads the settings; a missing file gives the defaults, a broken one too, and a field of the
    /// wrong type or out of its range its default, each with a warning: no file keeps notulad from starting.
    public static func load(from path: String, warn: (String) -> Void = { Log.warning($0) }) -> Settings {
        guard let data = FileManager.default.contents(atPath: path) else { return Settings() }
        let fields: Fields
        do { fields = try JSONDecoder().decode(Fields.self, from: data) } catch {
            warn("Ignoring \(path): it is not valid settings JSON (\(error))")
            return Settings()
        }
        func warnAbout(_ name: String, _ problem: String) { warn("\(path): \(name) \(problem); using its default") }
        return Settings(
            source: fields.source?.value(of: "source", warnAbout),
            locale: fields.locale?.value(of: "locale", warnAbout),
            alsoSpoken: fields.alsoSpoken?.value(of: "alsoSpoken", warnAbout),
            modelIdleSeconds: fields.modelIdleSeconds?.value(of: "modelIdleSeconds", within: modelIdleRange, warnAbout),
            modelCatalog: fields.modelCatalog?.value(of: "modelCatalog", warnAbout),
            mpris: fields.mpris?.value(of: "mpris", warnAbout),
            longestMemoSeconds: fields.longestMemoSeconds?.value(of: "longestMemoSeconds", within: longestMemoRange, warnAbout),
            output: fields.output?.value(of: "output", warnAbout), typing: fields.typing?.value(of: "typing", warnAbout),
            spaceAfterText: fields.spaceAfterText?.value(of: "spaceAfterText", warnAbout),
            silenceSeconds: fields.silenceSeconds?.value(of: "silenceSeconds", within: SilenceEnding.range, warnAbout),
            live: fields.live?.value(of: "live", warnAbout),
            vadSilenceThreshold: fields.vadSilenceThreshold?.value(
                of: "vadSilenceThreshold", within: AudioReaders.thresholdRange, warnAbout),
            vadSilenceSeconds: fields.vadSilenceSeconds?.value(of: "vadSilenceSeconds", within: AudioReaders.silenceRange, warnAbout),
            pauseMedia: fields.pauseMedia?.value(of: "pauseMedia", warnAbout),
            muteOutput: fields.muteOutput?.value(of: "muteOutput", warnAbout), sounds: fields.sounds?.value(of: "sounds", warnAbout),
            globalShortcuts: fields.globalShortcuts?.value(of: "globalShortcuts", warnAbout),
            models: fields.models?.value(of: "models", warnAbout),
            accurateModels: fields.accurateModels?.value(of: "accurateModels", warnAbout),
            appPermissions: fields.appPermissions?.value(of: "appPermissions", warnAbout))
    }

    /// Changes one field in the file, keeping the others; a failure is logged, as the running service goes on
    /// with the new value.
    static func update(at path: String, _ change: (inout Settings) -> Void) {
        var settings = load(from: path)
        change(&settings)
        do { try settings.save(to: path) } catch {
            Log.warning("Cannot keep the setting in \(path): \(error)")
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

/// settings.json as written, each field read on its own: one of the wrong type spoils no other.
private struct Fields: Decodable {
    var source: Field<String>?
    var locale: Field<String>?
    var alsoSpoken: Field<[String]>?
    var modelIdleSeconds: Field<Double>?
    var modelCatalog: Field<String>?
    var mpris: Field<Bool>?
    var longestMemoSeconds: Field<Double>?
    var output: Field<String>?
    var typing: Field<String>?
    var spaceAfterText: Field<Bool>?
    var silenceSeconds: Field<Double>?
    var live: Field<Bool>?
    var vadSilenceThreshold: Field<Double>?
    var vadSilenceSeconds: Field<Double>?
    var pauseMedia: Field<Bool>?
    var muteOutput: Field<Bool>?
    var sounds: Field<Bool>?
    var globalShortcuts: Field<Bool>?
    var models: Field<[String: String]>?
    var accurateModels: Field<[String: String]>?
    var appPermissions: Field<[String: String]>?
}

/// One field's value, or the fact that it is not of its type (`null` is an absent field).
private enum Field<Value: Decodable>: Decodable {
    case value(Value)
    case wrongType

    init(from decoder: any Decoder) {
        self = (try? decoder.singleValueContainer().decode(Value.self)).map { .value($0) } ?? .wrongType
    }

    func value(of name: String, _ warn: (String, String) -> Void) -> Value? {
        guard case .value(let value) = self else {
            warn(name, "is not \(Self.expected)")
            return nil
        }
        return value
    }
}

extension Field {
    private static var expected: String {
        switch Value.self {
        case is Bool.Type: "true or false"
        case is Double.Type: "a number"
        case is [String: String].Type: "an object of strings"
        default: "a string"
        }
    }
}

extension Field where Value == Double {
    func value(of name: String, within range: ClosedRange<Double>, _ warn: (String, String) -> Void) -> Double? {
        guard let value = value(of: name, warn) else { return nil }
        guard range.contains(value) else {
            warn(name, "is \(value), outside \(Int(range.lowerBound))…\(Int(range.upperBound))")
            return nil
        }
        return value
    }
}
