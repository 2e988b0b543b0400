import Downloading
import FoundationEssentials

/// One model of Vosk's catalog, as `model-list.json` describes it, or of a Whisper catalog in the same form.
public struct CatalogEntry: Sendable, Hashable {
    /// Vosk's own language code: `en-us`, `cn`, `ko`; see `LanguageTags` for BCP 47. For a Whisper model, Whisper's
    /// code of its one language (`en`), or `multi`.
    public var voskCode: String
    /// The language's English name, as the catalog gives it: `German`.
    public var languageName: String
    /// The model's name, which is also the folder its zip unpacks to: `vosk-model-small-de-0.15`.
    public var name: String
    /// Where the zip is downloaded from.
    public var url: URL
    /// The zip's size in bytes.
    public var size: Int
    /// The size as the catalog writes it for people: `44.3MiB`.
    public var sizeText: String
    /// The file's checksum: MD5 for Vosk's zips, SHA-1 for Whisper's files.
    public var checksum: Checksum
    public var kind: ModelKind
    /// Superseded by a newer model of the same language and kind.
    public var isObsolete: Bool
    /// `0.15`, `0.22`, `v3`: a string, not always a number.
    public var version: String

    public init(
        voskCode: String, languageName: String, name: String, url: URL, size: Int, sizeText: String, checksum: Checksum,
        kind: ModelKind, isObsolete: Bool, version: String
    ) {
        self.voskCode = voskCode
        self.languageName = languageName
        self.name = name
        self.url = url
        self.size = size
        self.sizeText = sizeText
        self.checksum = checksum
        self.kind = kind
        self.isObsolete = isObsolete
        self.version = version
    }

    /// The BCP 47 tag of a Vosk model's language: `en-US`, `zh-CN`; `nil` when the catalog's code is not a language,
    /// and for an accurate model, which may serve several.
    public var locale: String? {
        kind.isAccurate ? nil : LanguageTags.tag(forVoskCode: voskCode)
    }

    /// The BCP 47 tags the model serves: a Vosk model's language's; for a Whisper model every one of its language or
    /// languages (`WhisperLanguages`); for a sherpa-onnx model those of each language its code lists (`en`,
    /// `bg,cs,da`), as Whisper's models of them serve.
    public var locales: [String] {
        if kind == .whisper { return WhisperLanguages.locales(ofModelLanguage: voskCode) }
        if kind.isSherpa { return SherpaModelName.locales(ofLanguages: voskCode) }
        return locale.map { [$0] } ?? []
    }
}

/// What a model of the catalog is for: the catalog's `type`.
///
/// Open-ended, so that a kind Vosk adds later reads as itself rather than failing the entry.
public struct ModelKind: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    public let rawValue: String

    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// 40–80 MB to download, a few hundred MB of memory (500 MB for the small Korean model): the only kind Notula installs.
    public static let small = ModelKind(rawValue: "small")
    /// Server models, gigabytes of memory.
    public static let big = ModelKind(rawValue: "big")
    /// Big acoustic model with a small dynamic graph.
    public static let bigLgraph = ModelKind(rawValue: "big-lgraph")
    /// Speaker identification, not transcription.
    public static let speaker = ModelKind(rawValue: "spk")
    /// A ggml Whisper model for libwhisper: not followed live, used to transcribe a kept memo again.
    public static let whisper = ModelKind(rawValue: "whisper")
    /// NVIDIA's Parakeet TDT, a NeMo transducer, as sherpa-onnx publishes it: one folder of ONNX files.
    public static let parakeet = ModelKind(rawValue: "parakeet")
    /// Useful Sensors' Moonshine, as sherpa-onnx publishes it: one folder of ONNX files.
    public static let moonshine = ModelKind(rawValue: "moonshine")

    /// The kinds sherpa-onnx decodes, each published as a `.tar.bz2` archive of one folder.
    public var isSherpa: Bool { self == .parakeet || self == .moonshine }
    /// A model that decodes utterances rather than following a recording: the accurate pass's.
    public var isAccurate: Bool { self == .whisper || isSherpa }

    public var description: String { rawValue }
}

extension CatalogEntry: Decodable {
    private enum CodingKeys: String, CodingKey {
        case lang, name, url, size, md5, sha1, sha256, type, obsolete, version
        case langText = "lang_text"
        case sizeText = "size_text"
    }

    /// Reads an entry of `model-list.json`, checking what a download relies on.
    /// A Whisper catalog's entries (`type` `whisper`) have `sha1` in place of `md5`, a sherpa-onnx catalog's
    /// (`parakeet`, `moonshine`) `sha256`; both need no `lang_text`, `size_text` or `version`.
    /// - Throws: `DecodingError` when a field is missing or has another type, `obsolete` is neither `"true"`
    ///   nor `"false"`, `url` is not an absolute URL, `md5` is not 32 hexadecimal digits (`sha1` 40, `sha256` 64)
    ///   or `size` is negative.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        func invalid(_ key: CodingKeys, _ why: String) -> DecodingError {
            .dataCorruptedError(forKey: key, in: container, debugDescription: why)
        }
        kind = ModelKind(rawValue: try container.decode(String.self, forKey: .type))
        let isAccurate = kind.isAccurate
        voskCode = try container.decode(String.self, forKey: .lang)
        languageName =
            try container.decodeIfPresent(String.self, forKey: .langText)
            ?? (isAccurate ? (voskCode == "multi" ? "all languages" : voskCode) : container.decode(String.self, forKey: .langText))
        name = try container.decode(String.self, forKey: .name)
        let address = try container.decode(String.self, forKey: .url)
        guard let url = URL(string: address), url.scheme != nil else { throw invalid(.url, "not an absolute URL") }
        self.url = url
        size = try container.decode(Int.self, forKey: .size)
        guard size >= 0 else { throw invalid(.size, "a negative size") }
        sizeText =
            try container.decodeIfPresent(String.self, forKey: .sizeText)
            ?? (isAccurate ? DownloadError.text(forByteCount: Int64(size)) : container.decode(String.self, forKey: .sizeText))
        let sumKey: CodingKeys = kind == .whisper ? .sha1 : kind.isSherpa ? .sha256 : .md5
        guard let checksum = Checksum(kind: sumKey.stringValue, hex: try container.decode(String.self, forKey: sumKey)) else {
            throw invalid(sumKey, "not a checksum of the kind \(sumKey.stringValue) names")
        }
        self.checksum = checksum
        // A string in Vosk's list; a JSON boolean is taken too, should the list ever be cleaned up.
        if let flag = try? container.decode(Bool.self, forKey: .obsolete) {
            isObsolete = flag
        } else {
            switch try container.decode(String.self, forKey: .obsolete) {
            case "true": isObsolete = true
            case "false": isObsolete = false
            default: throw invalid(.obsolete, "neither \"true\" nor \"false\"")
            }
        }
        version =
            try isAccurate ? container.decodeIfPresent(String.self, forKey: .version) ?? "" : container.decode(String.self, forKey: .version)
    }
}
