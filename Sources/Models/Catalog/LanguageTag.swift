/// A language, and the region it is spoken in when one is known: the two parts of a BCP 47 tag Notula uses.
///
/// Parsing is lenient, as tags reach Notula from settings, D-Bus callers and POSIX locales:
/// case does not matter, `_` separates like `-`, a script (`zh-Hant-TW`) and anything after the region
/// (variants, extensions, private use) are dropped.
public struct LanguageTag: Sendable, Hashable, CustomStringConvertible {
    /// An ISO 639 code, lowercased: two or three letters.
    public let language: String
    /// An ISO 3166 code, uppercased (`US`), or a UN M.49 area of three digits (`419`); `nil` for none.
    public let region: String?

    /// A tag from already separated parts, normalised; `nil` when either is not a language or region code.
    public init?(language: String, region: String? = nil) {
        guard Self.isLanguage(language) else { return nil }
        if let region, !Self.isRegion(region) { return nil }
        self.language = language.lowercased()
        self.region = region?.uppercased()
    }

    /// Reads a tag such as `en-US`, `EN_us`, `zh-Hant-TW` or `ko`.
    /// - Parameter text: The tag; no surrounding spaces.
    /// - Returns: `nil` when `text` does not start with a two- or three-letter language, or when the
    ///   subtag after the language (and script) is neither a region nor a variant.
    public init?(parsing text: String) {
        var subtags = text.split(separator: "-", omittingEmptySubsequences: false)
            .flatMap { $0.split(separator: "_", omittingEmptySubsequences: false) }
            .map(String.init)[...]
        guard let language = subtags.popFirst(), Self.isLanguage(language) else { return nil }
        if let script = subtags.first, script.count == 4, script.allSatisfy(\.isASCIILetter) {
            subtags.removeFirst()
        }
        var region: String?
        if let next = subtags.first {
            if Self.isRegion(next) {
                region = next
            } else if !Self.isVariantOrExtension(next) {
                return nil
            }
        }
        self.init(language: language, region: region)
    }

    /// The tag as BCP 47 writes it: `en-US`, `eo`.
    public var description: String {
        region.map { "\(language)-\($0)" } ?? language
    }

    private static func isLanguage(_ text: String) -> Bool {
        (2...3).contains(text.count) && text.allSatisfy(\.isASCIILetter)
    }

    private static func isRegion(_ text: String) -> Bool {
        (text.count == 2 && text.allSatisfy(\.isASCIILetter)) || (text.count == 3 && text.allSatisfy(\.isASCIIDigit))
    }

    /// A variant (`valencia`, `1996`), an extension singleton (`u`) or private use (`x`): ignored, not wrong.
    private static func isVariantOrExtension(_ text: String) -> Bool {
        !text.isEmpty && text.count <= 8 && text.allSatisfy { $0.isASCIILetter || $0.isASCIIDigit }
    }
}

extension Character {
    fileprivate var isASCIILetter: Bool { isASCII && isLetter }
    fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
}
