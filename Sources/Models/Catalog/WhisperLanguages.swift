/// The languages Whisper knows, by its own codes, and the BCP 47 tags Notula gives them.
///
/// Whisper's codes are ISO 639-1 but for `jw` (Javanese, ISO `jv`) and three ISO 639-3 ones (`haw`, `yue`; `la`
/// and `yi` have no region). Each language is served under its main region, as `LanguageTags` gives a bare
/// Vosk language one, and English under the regions Vosk has models for too.
public enum WhisperLanguages {
    /// Whisper's codes in libwhisper 1.8.5's order (`whisper_lang_str`), with the region of each one's tag.
    static let regions: KeyValuePairs<String, String?> = [
        "en": "US", "zh": "CN", "de": "DE", "es": "ES", "ru": "RU", "ko": "KR", "fr": "FR", "ja": "JP", "pt": "BR",
        "tr": "TR", "pl": "PL", "ca": "ES", "nl": "NL", "ar": "SA", "sv": "SE", "it": "IT", "id": "ID", "hi": "IN",
        "fi": "FI", "vi": "VN", "he": "IL", "uk": "UA", "el": "GR", "ms": "MY", "cs": "CZ", "ro": "RO", "da": "DK",
        "hu": "HU", "ta": "IN", "no": "NO", "th": "TH", "ur": "PK", "hr": "HR", "bg": "BG", "lt": "LT", "la": nil,
        "mi": "NZ", "ml": "IN", "cy": "GB", "sk": "SK", "te": "IN", "fa": "IR", "lv": "LV", "bn": "BD", "sr": "RS",
        "az": "AZ", "sl": "SI", "kn": "IN", "et": "EE", "mk": "MK", "br": "FR", "eu": "ES", "is": "IS", "hy": "AM",
        "ne": "NP", "mn": "MN", "bs": "BA", "kk": "KZ", "sq": "AL", "sw": "KE", "gl": "ES", "mr": "IN", "pa": "IN",
        "si": "LK", "km": "KH", "sn": "ZW", "yo": "NG", "so": "SO", "af": "ZA", "oc": "FR", "ka": "GE", "be": "BY",
        "tg": "TJ", "sd": "PK", "gu": "IN", "am": "ET", "yi": nil, "lo": "LA", "uz": "UZ", "fo": "FO", "ht": "HT",
        "ps": "AF", "tk": "TM", "nn": "NO", "mt": "MT", "sa": "IN", "lb": "LU", "my": "MM", "bo": "CN", "tl": "PH",
        "mg": "MG", "as": "IN", "tt": "RU", "haw": "US", "ln": "CD", "ha": "NG", "ba": "RU", "jw": "ID", "su": "ID",
        "yue": "HK",
    ]

    /// Regions beyond the main one that a language's models serve: Vosk's English models of India and Britain.
    private static let otherRegions: [String: [String]] = ["en": ["GB", "IN"]]

    /// Whisper's codes whose ISO 639 code differs.
    private static let isoCodes = ["jw": "jv"]

    /// The BCP 47 tags a model of Whisper's language `code` serves; `multi` for a multilingual model gives every
    /// language's. Empty for a code Whisper does not know.
    public static func locales(ofModelLanguage code: String) -> [String] {
        code == "multi" ? allLocales : localesByCode[code] ?? []
    }

    /// Each code's tags, worked out once: the models' locales are asked for at every read of the Models object.
    private static let localesByCode: [String: [String]] = Dictionary(
        uniqueKeysWithValues: regions.map { code, region in
            let language = isoCodes[code] ?? code
            let tags = ([region].compactMap { $0 } + otherRegions[code, default: []]).map { "\(language)-\($0)" }
            return (code, tags.isEmpty ? [language] : tags)
        })

    /// Every language's tags, in libwhisper's order.
    private static let allLocales = regions.flatMap { localesByCode[$0.key] ?? [] }

    /// Whisper's code for the language of a BCP 47 tag: `de-AT` → `de`, `jv-ID` → `jw`; nil for one it does not know.
    public static func code(forTag tag: String) -> String? {
        guard let language = LanguageTag(parsing: tag)?.language else { return nil }
        let code = isoCodes.first { $0.value == language }?.key ?? language
        return regions.contains { $0.key == code } ? code : nil
    }
}
