import FoundationEssentials

/// Vosk's catalog of models, and which model serves a language.
public struct ModelCatalog: Sendable, Hashable {
    /// Where Vosk publishes the catalog.
    public static let address = "https://alphacephei.com/vosk/models/model-list.json"

    /// Every entry that could be read, in the catalog's order.
    public var entries: [CatalogEntry]

    public init(entries: [CatalogEntry]) {
        self.entries = entries
    }

    /// Reads `model-list.json`.
    ///
    /// An entry with a missing or odd field is left out rather than failing the whole catalog, so that one
    /// bad line on Vosk's side does not take every language away.
    /// - Parameter json: The file's bytes: a JSON array of entries.
    /// - Throws: `CatalogError` when `json` is not a JSON array.
    public init(json: Data) throws(CatalogError) {
        do {
            entries = try JSONDecoder().decode([Skippable].self, from: json).compactMap(\.entry)
        } catch {
            throw CatalogError(message: "Vosk's model list cannot be read: \(error)")
        }
    }

    /// The model to install for `locale`, or `nil` when the catalog has none for its language.
    ///
    /// Only small models that are not obsolete are picked. Among those, as `LanguageTags.bestMatch(for:among:)`
    /// ranks them: the same region (`en-in` for `en-IN`), else the language's main region (`en-us` for `en-AU`),
    /// else any region of the language. Of several models for one tag, the first in the catalog, as Vosk's own
    /// Python package picks.
    /// - Parameter locale: A BCP 47 tag, read leniently: `en-IN`, `nl`, `zh_CN`.
    public func model(for locale: String) -> CatalogEntry? {
        let candidates = installable
        guard let tag = LanguageTags.bestMatch(for: locale, among: candidates.compactMap(\.locale)) else { return nil }
        return candidates.first { $0.locale == tag }
    }

    /// The BCP 47 tags the catalog has a small, current model for, sorted and each once.
    public var supportedLocales: [String] {
        Set(installable.compactMap(\.locale)).sorted()
    }

    /// Every current transcription model with a language, whatever its kind: what a user may choose among.
    public var choosable: [CatalogEntry] {
        entries.filter { !$0.isObsolete && $0.kind != .speaker && !$0.locales.isEmpty }
    }

    /// The entries Notula installs by itself: small and current.
    private var installable: [CatalogEntry] {
        entries.filter { $0.kind == .small && !$0.isObsolete }
    }

    /// An entry, or nothing when it cannot be read.
    private struct Skippable: Decodable {
        let entry: CatalogEntry?

        init(from decoder: any Decoder) {
            entry = try? CatalogEntry(from: decoder)
        }
    }
}

/// Vosk's catalog could not be read.
public struct CatalogError: Error, Sendable, Equatable {
    /// Meant for the user: what went wrong.
    public let message: String

    public init(message: String) {
        self.message = message
    }
}
