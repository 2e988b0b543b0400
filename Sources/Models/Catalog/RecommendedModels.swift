/// The model a locale brings when it is picked with none on disk: Vosk's small model where Vosk has one, as it
/// follows the words live; else the accurate model recommended for a 2-core laptop that serves it (the README's
/// table says why each).
enum RecommendedModels {
    /// Best first: Parakeet TDT v2 for English, v3 for its 24 other European languages, then Whisper base, quantised,
    /// for every other language Whisper knows.
    static let accurate = [
        "sherpa-onnx-nemo-parakeet-tdt-0.6b-v2-int8", "sherpa-onnx-nemo-parakeet-tdt-0.6b-v3-int8", "ggml-base-q5_1",
    ]

    /// The entry `locale` brings from `catalog` (Vosk's) or `accurate` (the accurate pass's catalogs' current models):
    /// nil when none serves it, or when Vosk's catalog is not known (never fetched), as Vosk may have a model of it.
    /// Of accurate models the table does not name, the first listed.
    static func entry(for locale: String, catalog: ModelCatalog, accurate choosable: [CatalogEntry]) -> CatalogEntry? {
        guard !catalog.entries.isEmpty else { return nil }
        if let vosk = catalog.model(for: locale), vosk.locale == locale { return vosk }
        let serving = choosable.filter { $0.kind.isAccurate && $0.locales.contains(locale) }
        return accurate.lazy.compactMap { name in serving.first { $0.name == name } }.first ?? serving.first
    }
}
