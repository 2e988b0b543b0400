/// The name of a Vosk model's folder, read: `vosk-model[-small]-LANG[-NAME…][-VERSION][-SUFFIX…]`.
///
/// Vosk names every model so, and its zips unpack to a folder of the model's name:
/// `vosk-model-small-en-us-0.15`, `vosk-model-en-us-0.22-lgraph`, `vosk-model-small-sv-rhasspy-0.15`,
/// `vosk-model-small-uk-v3-nano`. `LANG` is one of `LanguageTags.voskCodes`, two-part codes (`en-us`, `el-gr`)
/// taken whole, or else any two-letter code, for languages Vosk adds later; three letters are not taken, so
/// that the speaker model `vosk-model-spk-0.4` is no language.
public struct ModelFolderName: Sendable, Hashable {
    /// The folder's name, as given.
    public let name: String
    /// Vosk's code of the language: `en-us`, `cn`.
    public let voskCode: String
    /// The BCP 47 tag of the language: `en-US`, `zh-CN`.
    public let locale: String
    /// A `small` model: a few hundred MB of memory rather than gigabytes.
    public let isSmall: Bool
    /// The first part after the language that starts with a digit, or a `v` and a digit: `0.15`, `v3`.
    public let version: String?
    /// `small`; `big-lgraph` for a big model with a small graph (an `lgraph` part: `vosk-model-en-us-0.22-lgraph`); else `big`.
    public var kind: ModelKind { isSmall ? .small : hasSmallGraph ? .bigLgraph : .big }
    private let hasSmallGraph: Bool

    /// Reads a folder name; `nil` when it is not a transcription model's.
    public init?(_ name: String) {
        let prefix = "vosk-model-"
        guard name.hasPrefix(prefix) else { return nil }
        var parts = name.dropFirst(prefix.count).split(separator: "-", omittingEmptySubsequences: false)
            .map { $0.lowercased() }[...]
        guard parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy(Self.isNameCharacter) }) else { return nil }
        isSmall = parts.first == "small"
        if isSmall { parts.removeFirst() }

        guard let first = parts.popFirst() else { return nil }
        if let second = parts.first, LanguageTags.voskCodes.contains("\(first)-\(second)") {
            parts.removeFirst()
            voskCode = "\(first)-\(second)"
        } else if LanguageTags.voskCodes.contains(first) || (first.count == 2 && first.allSatisfy(\.isLetter)) {
            voskCode = first
        } else {
            return nil
        }
        guard let locale = LanguageTags.tag(forVoskCode: voskCode) else { return nil }
        self.name = name
        self.locale = locale
        version = parts.first(where: Self.isVersion)
        hasSmallGraph = parts.contains("lgraph")
    }

    /// Whether this model is to be preferred to `other` of the same language: a small one (predictable memory
    /// and load time for a service that loads a model on demand), then the higher version, then the name.
    public func isPreferred(to other: ModelFolderName) -> Bool {
        if isSmall != other.isSmall { return isSmall }
        let (mine, theirs) = (Self.numbers(in: version), Self.numbers(in: other.version))
        if mine != theirs { return theirs.lexicographicallyPrecedes(mine) }
        return name < other.name
    }

    private static func isNameCharacter(_ character: Character) -> Bool {
        character.isASCII && (character.isLetter || character.isNumber || character == "." || character == "_")
    }

    private static func isVersion(_ part: String) -> Bool {
        let digits = part.first == "v" ? part.dropFirst() : part[...]
        return digits.first?.isNumber == true
    }

    /// `0.22` → `[0, 22]`, `v3` → `[3]`, none → `[]`: versions compare number by number, so `0.22` is above `0.4`.
    private static func numbers(in version: String?) -> [Int] {
        (version ?? "").split(whereSeparator: { !$0.isNumber }).compactMap { Int($0) }
    }
}
