/// Vosk's language codes, the BCP 47 tags Notula speaks, and how the two map.
///
/// Vosk's catalog names languages its own way: mostly ISO 639 codes, sometimes with a region (`en-us`,
/// `el-gr`), sometimes a country code instead (`cn` for Chinese, `vn` for Vietnamese, `kz` for Kazakh,
/// `ua` beside `uk` for Ukrainian). Notula always speaks BCP 47 with a region (`en-US`, `zh-CN`), so that a
/// bare language gets the region its speakers mostly live in, as listed in `mainRegions`.
public enum LanguageTags {
    /// The codes Vosk's catalog uses, in the order of its models page.
    public static let voskCodes: [String] = [
        "en-us", "en-in", "en-gb", "cn", "ru", "fr", "de", "es", "pt", "el-gr", "tr", "vn", "it", "nl", "ca", "ar",
        "ar-tn", "fa", "tl-ph", "uk", "ua", "kz", "sv", "ja", "eo", "hi", "cs", "pl", "uz", "ko", "br", "gu", "tg", "te",
    ]

    /// Vosk codes that are not the language's ISO 639 code: country codes standing in for a language.
    private static let irregularCodes: [String: LanguageTag] = [
        "cn": LanguageTag(language: "zh", region: "CN")!,
        "vn": LanguageTag(language: "vi", region: "VN")!,
        "kz": LanguageTag(language: "kk", region: "KZ")!,
        "ua": LanguageTag(language: "uk", region: "UA")!,
    ]

    /// The region a language without one is taken to mean, for the languages Vosk has models of.
    ///
    /// Choices that are not obvious:
    /// - `pt` is `BR`: Vosk's models page lists its Portuguese models as "Portuguese/Brazilian Portuguese",
    ///   and its big one comes from the FalaBrasil project.
    /// - `ar` is `SA`: Vosk's Arabic models are Modern Standard Arabic (broadcast news), which has no country;
    ///   `ar-SA` is the tag speech services conventionally give it. Tunisian Arabic is a separate model, `ar-tn`.
    /// - `ca` is `ES`, `br` (Breton, not Brazil) is `FR`.
    /// - `eo` (Esperanto) has no region and stays `eo`.
    public static let mainRegions: [String: String] = [
        "ar": "SA", "br": "FR", "ca": "ES", "cs": "CZ", "de": "DE", "el": "GR", "en": "US", "es": "ES", "fa": "IR",
        "fr": "FR", "gu": "IN", "hi": "IN", "it": "IT", "ja": "JP", "kk": "KZ", "ko": "KR", "nl": "NL", "pl": "PL",
        "pt": "BR", "ru": "RU", "sv": "SE", "te": "IN", "tg": "TJ", "tl": "PH", "tr": "TR", "uk": "UA", "uz": "UZ",
        "vi": "VN", "zh": "CN",
    ]

    /// The BCP 47 tag of a Vosk language code: `en-us` → `en-US`, `cn` → `zh-CN`, `ko` → `ko-KR`, `eo` → `eo`.
    ///
    /// A code this table does not know is read as a language tag, so a language Vosk adds later still maps
    /// (without a region unless it has one).
    /// - Parameter code: A `lang` of Vosk's catalog, any case.
    /// - Returns: `nil` when `code` is not a language code at all.
    public static func tag(forVoskCode code: String) -> String? {
        languageTag(forVoskCode: code)?.description
    }

    /// The Vosk codes of a BCP 47 tag, best first: `en-US` → `["en-us"]`, `uk-UA` → `["uk", "ua"]`,
    /// `ko` → `["ko"]` (a bare language means its main region).
    /// - Parameter tag: A BCP 47 tag, read leniently (see `LanguageTag`).
    /// - Returns: The codes in `voskCodes` that map to the same tag; empty when Vosk has none.
    public static func voskCodes(forTag tag: String) -> [String] {
        guard let wanted = LanguageTag(parsing: tag).map(withMainRegion) else { return [] }
        return voskCodes.filter { languageTag(forVoskCode: $0) == wanted }
    }

    /// The first of `voskCodes(forTag:)`: the code to look a tag up by in Vosk's catalog.
    public static func voskCode(forTag tag: String) -> String? {
        voskCodes(forTag: tag).first
    }

    /// `tag` with its language's main region when it has none: `ko` → `ko-KR`; `eo` and unknown languages stay.
    public static func withMainRegion(_ tag: LanguageTag) -> LanguageTag {
        guard tag.region == nil, let region = mainRegions[tag.language] else { return tag }
        return LanguageTag(language: tag.language, region: region) ?? tag
    }

    /// The tag of `tags` that serves `wanted` best, or `nil` when none is of its language.
    ///
    /// In order: the same language and region (`en-IN` for `en-IN`); the language's main region (`en-US` for
    /// `en-AU`, and for a bare `en`); then the first of `tags` of that language. Tags that do not parse are skipped.
    /// - Parameters:
    ///   - wanted: A BCP 47 tag, read leniently.
    ///   - tags: The tags on offer, as they will be returned.
    /// - Returns: An element of `tags`, unchanged.
    public static func bestMatch(for wanted: String, among tags: [String]) -> String? {
        guard let wanted = LanguageTag(parsing: wanted) else { return nil }
        let offered = tags.compactMap { tag in LanguageTag(parsing: tag).map { (tag, $0) } }
            .filter { $0.1.language == wanted.language }
        let mainRegion = mainRegions[wanted.language]
        return offered.first { $0.1 == wanted }?.0
            ?? offered.first { $0.1.region == mainRegion }?.0
            ?? offered.first?.0
    }

    static func languageTag(forVoskCode code: String) -> LanguageTag? {
        let code = code.lowercased()
        return irregularCodes[code] ?? LanguageTag(parsing: code).map(withMainRegion)
    }
}
