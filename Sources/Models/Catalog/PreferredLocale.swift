/// The language the user most likely dictates in, from the POSIX locale.
public enum PreferredLocale {
    /// What Notula falls back to when the locale says nothing it can serve.
    public static let fallback = "en-US"

    /// The supported tag closest to the user's locale.
    ///
    /// The locale is the first of `LC_ALL`, `LC_MESSAGES` and `LANG` that is set to a locale name:
    /// empty values, `C` and `POSIX` (with any codeset, `C.UTF-8`) and names that are no language are passed over.
    /// Its codeset and modifier are dropped (`nl_BE.UTF-8`, `de_DE@euro`). It then maps, as
    /// `LanguageTags.bestMatch(for:among:)` ranks: the same language and region if supported, else the language's
    /// main region (`nl-NL` for `nl_BE`), else any supported tag of the language, else `en-US`.
    /// - Parameters:
    ///   - environment: The process environment.
    ///   - supported: BCP 47 tags Notula can serve, such as `ModelCatalog.supportedLocales`.
    /// - Returns: An element of `supported`, unchanged, or `en-US`.
    public static func fromEnvironment(_ environment: [String: String], supported: [String]) -> String {
        let locale = ["LC_ALL", "LC_MESSAGES", "LANG"].lazy.compactMap { environment[$0].flatMap(tag(fromPOSIXLocale:)) }.first
        guard let locale else { return fallback }
        return LanguageTags.bestMatch(for: locale.description, among: supported) ?? fallback
    }

    /// The language and region of a POSIX locale name: `nl_BE.UTF-8` → `nl-BE`; `nil` for `C`, `POSIX` or garbage.
    public static func tag(fromPOSIXLocale name: String) -> LanguageTag? {
        let base = name.prefix { $0 != "." && $0 != "@" }
        guard base != "C", base != "POSIX" else { return nil }
        return LanguageTag(parsing: String(base))
    }

    /// The locale kept in settings.json, realigned to those a model serves: `de` or `de_AT` written by hand become the
    /// supported tag of their language (`de-DE`), as a pick would; a kept locale whose language no model serves gives
    /// the locale `fromEnvironment` guesses — but only when `catalogKnown`: before the catalog is known, the kept one
    /// may be served once it is, and stays.
    /// - Returns: `kept` when it is supported (or cannot be judged yet); otherwise the closest supported tag.
    public static func realigned(_ kept: String, supported: [String], catalogKnown: Bool, environment: [String: String]) -> String {
        guard !supported.contains(kept) else { return kept }
        if let closest = LanguageTags.bestMatch(for: kept, among: supported) { return closest }
        guard catalogKnown, !supported.isEmpty else { return kept }
        return fromEnvironment(environment, supported: supported)
    }
}
