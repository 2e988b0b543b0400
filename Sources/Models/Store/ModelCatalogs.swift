/// What can be installed and what is here: Vosk's, Whisper's and sherpa-onnx's catalogs, where fresh ones come from,
/// and the models on disk. The `ModelStore` owns it, on its executor, and fetches the catalogs (`CatalogRefresh`).
public struct ModelCatalogs: Sendable {
    /// The catalogs and the models on disk, as last read.
    var known: ModelStore.Known
    let source: CatalogSource
    /// Where catalogs of the accurate pass's models other than the built-in ones are fetched from
    /// (`NOTULA_WHISPER_CATALOG`, `NOTULA_SHERPA_CATALOG`).
    let accurateSources: [ModelStore.AccurateCatalog: CatalogSource]
    /// How far Vosk's catalog is known: as the last fetch left it, or a copy cached by an earlier one.
    var voskFetch: CatalogFetch
    /// How long a locale pick or an installation that the known catalog cannot serve waits for the fetch in flight,
    /// before it is answered from the known one.
    let wait: Duration
    /// Sizes on disk of models the catalog does not list, by path: measured once, as a folder walk is not free.
    private var sizesOnDisk: [String: UInt64] = [:]

    /// - Parameters:
    ///   - known: The catalog cached by the last fetch, and the models on disk.
    ///   - accurateSources: Catalogs to fetch with Vosk's; the others stay as `known` has them.
    public init(
        known: ModelStore.Known, source: CatalogSource, accurateSources: [ModelStore.AccurateCatalog: CatalogSource] = [:],
        wait: Duration = .seconds(10)
    ) {
        self.known = known
        self.source = source
        self.accurateSources = accurateSources
        voskFetch = known.catalog.entries.isEmpty ? .notFetched : .fetched
        self.wait = wait
    }

    /// Every model a user may choose: the catalog's current ones and those on disk, by locale and name; the bytes an
    /// installed one takes on disk, else its download's.
    mutating func availableModels() -> [AvailableModel] {
        let paths = Dictionary(known.installed.map { ($0.name, $0.path) }, uniquingKeysWith: { first, _ in first })
        func model(_ locale: String, _ name: String, _ kind: ModelKind, downloadBytes: UInt64) -> AvailableModel {
            let path = paths[name]
            return AvailableModel(
                locale: locale, name: name, kind: kind, bytes: path.map { sizeOnDisk($0) } ?? downloadBytes, installed: path != nil)
        }
        let listed = known.choosable.flatMap { entry in
            entry.locales.map { model($0, entry.name, entry.kind, downloadBytes: UInt64(max(0, entry.size))) }
        }
        let listedNames = Set(listed.map { $0.name + " " + $0.locale })
        let onDiskOnly = known.installed.filter { !listedNames.contains($0.name + " " + $0.locale) }.map {
            model($0.locale, $0.name, $0.kind, downloadBytes: 0)
        }
        return (listed + onDiskOnly).sorted { ($0.locale, $0.name) < ($1.locale, $1.name) }
    }

    private mutating func sizeOnDisk(_ path: String) -> UInt64 {
        if let size = sizesOnDisk[path] { return size }
        let size = FolderSize.bytes(of: path)
        sizesOnDisk[path] = size
        return size
    }

    /// The supported locale `tag` names (`ko_kr` names `ko-KR`).
    /// - Parameter fetching: Vosk's catalog is being fetched.
    /// - Throws: `unsupportedLocale` naming the supported ones when none is `tag`.
    func locale(_ tag: String, fetching: Bool) throws(ModelError) -> String {
        let supported = known.supportedLocales
        let wanted = tag.replacing("_", with: "-").lowercased()
        guard let match = supported.first(where: { $0.lowercased() == wanted }) else {
            throw .unsupportedLocale(tag: tag, supported: supported, catalog: fetching ? .fetching : voskFetch)
        }
        return match
    }

    /// The catalogs' current model `name` of `locale`.
    /// - Throws: `noSuchModel`, naming the locale's models in the catalogs and on disk, when there is none.
    func entry(for locale: String, named name: String) throws(ModelError) -> CatalogEntry {
        let choosable = known.choosable.filter { $0.locales.contains(locale) }
        guard let entry = choosable.first(where: { $0.name == name }) else {
            let onDisk = known.installed.filter { $0.locale == locale }.map(\.name)
            throw .noSuchModel(locale: locale, model: name, models: Array(Set(choosable.map(\.name) + onDisk)).sorted())
        }
        return entry
    }

    /// The model the supported `locale` brings (`RecommendedModels`): Vosk's where it has one, else an accurate one.
    /// - Parameter fetching: Vosk's catalog is being fetched.
    /// - Throws: `notInCatalog` when no catalog has one.
    func recommended(for locale: String, fetching: Bool = false) throws(ModelError) -> CatalogEntry {
        guard let entry = RecommendedModels.entry(for: locale, catalog: known.catalog, accurate: known.choosable) else {
            throw .notInCatalog(locale: locale, catalog: fetching ? .fetching : voskFetch)
        }
        return entry
    }

    func isInstalled(_ name: String, of locale: String) -> Bool {
        known.installed.contains { $0.locale == locale && $0.name == name }
    }

    /// Whether `name` is a model of the accurate pass (Whisper's, sherpa-onnx's), not one that follows a recording.
    func isAccurate(_ name: String) -> Bool {
        known.choosable.contains { $0.name == name && $0.kind.isAccurate } || known.installed.contains { $0.name == name && !$0.isLive }
    }
}
