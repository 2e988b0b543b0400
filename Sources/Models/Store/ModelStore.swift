import FoundationEssentials
import Glibc
import Recording

/// The speech models: Vosk's catalog, the models on this machine, and the one installation in flight.
///
/// Runs on the executor of `isolation` (the bus's, in the service), so that the Models object's properties and
/// methods reach it synchronously, in the order calls arrive; installations and catalog fetches run off it and
/// report back.
public actor ModelStore {
    private let isolation: any Actor
    public nonisolated var unownedExecutor: UnownedSerialExecutor { isolation.unownedExecutor }

    private let places: ModelPlaces
    let catalogSource: CatalogSource
    /// Where a Whisper catalog other than the built-in one is fetched from (`NOTULA_WHISPER_CATALOG`).
    let whisperCatalogSource: CatalogSource?
    private let transcriber: any ModelPreparing
    /// The model the user chose per locale, shared with the speech engine.
    let choices: ModelChoices
    /// The Whisper model of the accurate pass per locale, shared with the transcriber, and where it is kept.
    public let accurateChoices: ModelChoices
    /// Sizes on disk of models the catalog does not list, by path: measured once, as a folder walk is not free.
    private var sizesOnDisk: [String: UInt64] = [:]
    /// Hears every download and change of locales.
    let listener: any ModelListener
    /// Checks that an unpacked model loads before it is installed.
    private let loads: ModelLoadCheck
    var known: Known
    private var installing: Installing?
    /// Numbers the waits for an installation or a catalog, so that one that ends early can be found.
    var waiterCount = 0
    /// The catalog fetch in flight.
    var catalogFetch: Task<Result<Void, ModelError>, Never>?
    var catalogWaiters: [Int: CheckedContinuation<Void, Never>] = [:]
    /// How long a request the known catalog cannot serve waits for the fetch in flight.
    let catalogWait: Duration

    /// The catalogs and the models on disk.
    public struct Known: Sendable, Equatable {
        /// Vosk's.
        public var catalog: ModelCatalog
        /// Whisper's models: `WhisperCatalog.builtIn`, or the one `NOTULA_WHISPER_CATALOG` names.
        public var whisperCatalog: ModelCatalog
        /// Every model on disk, as `InstalledModels.all(places:)` gives them.
        public var installed: [InstalledModel]

        public init(catalog: ModelCatalog, whisperCatalog: ModelCatalog = WhisperCatalog.builtIn, installed: [InstalledModel]) {
            self.catalog = catalog
            self.whisperCatalog = whisperCatalog
            self.installed = installed
        }

        /// The locales a recording can be made in: Vosk's catalog's and those of the models on disk (a Whisper model's
        /// follow a recording alone), sorted.
        public var supportedLocales: [String] {
            Set(catalog.supportedLocales + installed.map(\.locale)).sorted()
        }

        /// The locales any model serves, on disk or in a catalog, Whisper's included: what a kept memo can be
        /// transcribed in, and what models can be installed for.
        public var servedLocales: [String] {
            Set(supportedLocales + installed.map(\.locale) + whisperCatalog.choosable.flatMap(\.locales)).sorted()
        }

        /// Every current model either catalog lists.
        var choosable: [CatalogEntry] { catalog.choosable + whisperCatalog.choosable }
    }

    private struct Installing {
        let locale: String
        let model: String
        let installation: ModelInstallation
        var progress = 0.0
        /// Transcriptions waiting for this model.
        var waiters: [Int: CheckedContinuation<Void, Never>] = [:]
    }

    /// - Parameters:
    ///   - isolation: The actor whose executor the store shares.
    ///   - known: The catalog cached by the last fetch, and the models on disk.
    ///   - loads: Checks that an unpacked model loads; throws saying why not.
    ///   - whisperCatalogSource: A Whisper catalog to fetch with Vosk's; nil to keep the one `known` has.
    ///   - catalogWait: How long a locale pick or an installation that the known catalog cannot serve waits for
    ///     the fetch in flight, before it is answered from the known one.
    public init(
        isolation: any Actor, places: ModelPlaces, known: Known, catalogSource: CatalogSource,
        whisperCatalogSource: CatalogSource? = nil, transcriber: any ModelPreparing,
        listener: any ModelListener, loads: @escaping ModelLoadCheck,
        choices: ModelChoices = ModelChoices([:]), accurateChoices: ModelChoices = ModelChoices([:]),
        catalogWait: Duration = .seconds(10)
    ) {
        self.isolation = isolation
        self.places = places
        self.known = known
        self.catalogSource = catalogSource
        self.whisperCatalogSource = whisperCatalogSource
        self.transcriber = transcriber
        self.choices = choices
        self.accurateChoices = accurateChoices
        self.listener = listener
        self.loads = loads
        self.catalogWait = catalogWait
    }

    // MARK: What the Models object shows

    /// The locales a model serves, in the catalog or on disk. The model folders are looked at again, so that a
    /// model put there meanwhile (by Vosk's tools, say) is listed.
    public var supportedLocales: [String] {
        rescan()
        return known.supportedLocales
    }

    /// The locales of the models on disk, Whisper's included, looked for again.
    public var installedLocales: [String] {
        rescan()
        var seen: Set<String> = []
        return known.installed.map(\.locale).filter { seen.insert($0).inserted }
    }

    /// Every model a user may choose: the catalog's current ones and those on disk, by locale and name; the bytes an
    /// installed one takes on disk, else its download's.
    public var availableModels: [AvailableModel] {
        rescan()
        let paths = Dictionary(known.installed.map { ($0.name, $0.path) }, uniquingKeysWith: { first, _ in first })
        func model(_ locale: String, _ name: String, _ kind: ModelKind, downloadBytes: UInt64) -> AvailableModel {
            let path = paths[name]
            return AvailableModel(
                locale: locale, name: name, kind: kind, bytes: path.map(sizeOnDisk) ?? downloadBytes, installed: path != nil)
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

    /// The model recordings use, per locale with a model on disk: the one chosen, else the best there is.
    public var modelsInUse: [String: String] {
        let chosen = choices.all
        return installedLocales.reduce(into: [:]) { inUse, locale in
            inUse[locale] = InstalledModels.inUse(for: locale, among: known.installed, chosen: chosen[locale])?.name
        }
    }

    private func sizeOnDisk(_ path: String) -> UInt64 {
        if let size = sizesOnDisk[path] { return size }
        let size = FolderSize.bytes(of: path)
        sizesOnDisk[path] = size
        return size
    }

    public var downloadingLocale: String { installing?.locale ?? "" }
    public var downloadProgress: Double { installing?.progress ?? 0 }
    /// Whether the catalog is being fetched: a pick or an installation then best waits for it (`…OnceFetched`).
    public var isFetchingCatalog: Bool { catalogFetch != nil }

    /// The supported locale `tag` names (`ko_kr` names `ko-KR`): one a recording can be made in.
    /// - Throws: `unsupportedLocale` naming the supported locales when no model serves `tag`.
    public func supportedLocale(_ tag: String) throws(ModelError) -> String {
        try locale(tag, among: supportedLocales)
    }

    /// The locale `tag` names among those any model serves, Whisper's included.
    /// - Throws: `unsupportedLocale` naming them when none is `tag`.
    func servedLocale(_ tag: String) throws(ModelError) -> String {
        rescan()
        return try locale(tag, among: known.servedLocales)
    }

    private func locale(_ tag: String, among supported: [String]) throws(ModelError) -> String {
        let wanted = tag.replacing("_", with: "-").lowercased()
        guard let match = supported.first(where: { $0.lowercased() == wanted }) else {
            throw .unsupportedLocale(tag: tag, supported: supported)
        }
        return match
    }

    // MARK: Methods

    /// Makes the locale `tag` names the one recordings are transcribed in: `choose` is given it, then its model
    /// is readied, installed first when missing.
    /// - Returns: The supported locale picked.
    /// - Throws: `unsupportedLocale` when no model serves `tag`; nothing is chosen then.
    public func pick(_ tag: String, choosing choose: (String) -> Void) throws(ModelError) -> String {
        let locale = try supportedLocale(tag)
        choose(locale)
        if known.installed.contains(where: { $0.locale == locale && $0.isLive }) {
            transcriber.prepare(locale)
        } else {
            installIfMissing(locale)
        }
        return locale
    }

    /// `pick(_:choosing:)`, after the catalog fetch in flight when the known catalog does not serve `tag`: the
    /// first pick after a start is not refused for want of a catalog that is on its way.
    public func pickOnceFetched(_ tag: String, choosing choose: @Sendable (String) -> Void) async throws(ModelError) -> String {
        if (try? supportedLocale(tag)) == nil { await catalogSettled() }
        return try pick(tag, choosing: choose)
    }

    /// Installs the model of `locale` when none is on this machine and the catalog has one.
    public func installIfMissing(_ locale: String) {
        guard !installedLocales.contains(locale), known.catalog.model(for: locale)?.locale == locale else { return }
        do throws(ModelError) { try install(locale) } catch {
            Log.warning("Cannot install a model for \(locale): \(error.message)")
        }
    }

    /// `install(_:)`, after the catalog fetch in flight when the known catalog has no model of `tag`.
    public func installOnceFetched(_ tag: String) async throws(ModelError) {
        if (try? catalogEntry(for: tag)) == nil { await catalogSettled() }
        try install(tag)
    }

    /// Starts installing the model of `tag` in the background, cancelling an installation of another locale.
    /// Nothing happens when it is installed or being installed.
    /// - Throws: `unsupportedLocale` for a tag no model serves, `notInCatalog` for one that only a model on disk
    ///   serves, `failed` for a catalog entry that cannot be installed.
    public func install(_ tag: String) throws(ModelError) {
        let locale = try supportedLocale(tag)
        // A Whisper model of the locale does not stop its Vosk model, which follows a recording live, from coming.
        rescan()
        guard !known.installed.contains(where: { $0.locale == locale && $0.isLive }), installing?.locale != locale else { return }
        try begin(try catalogEntry(for: locale), for: locale)
    }

    /// Starts installing the catalog's model `name` of `tag` in the background, cancelling any other installation.
    /// Nothing happens when it is installed or being installed.
    /// - Throws: `unsupportedLocale` for a tag no model serves, `noSuchModel` when the catalog has no current model of
    ///   that name for the locale, `failed` for a catalog entry that cannot be installed.
    public func install(_ tag: String, model name: String) throws(ModelError) {
        let locale = try servedLocale(tag)
        guard !isInstalled(name, of: locale), installing?.model != name else { return }
        try begin(try catalogEntry(for: locale, named: name), for: locale)
    }

    /// `install(_:model:)`, after the catalog fetch in flight when the known catalog lacks the model.
    public func installOnceFetched(_ tag: String, model name: String) async throws(ModelError) {
        if (try? catalogEntry(for: servedLocale(tag), named: name)) == nil { await catalogSettled() }
        try install(tag, model: name)
    }

    /// Makes `name` the model recordings in `tag` use, kept in the settings; installed first when it is not on disk
    /// (until then recordings use the best model there is).
    /// - Throws: `unsupportedLocale`, `noSuchModel` when neither this machine nor the catalog has it, `failed` when its
    ///   installation cannot begin; nothing is chosen then.
    public func use(_ tag: String, model name: String) throws(ModelError) {
        let locale = try servedLocale(tag)
        let isWhisper =
            name.isEmpty || known.choosable.contains { $0.name == name && $0.kind == .whisper }
            || known.installed.contains { $0.name == name && !$0.isLive }
        if isWhisper { return try useAccurate(name, in: locale) }
        if !isInstalled(name, of: locale) { try install(locale, model: name) }
        guard choices[locale] != name else { return }
        choices[locale] = name
        choices.keep()
        Log.info("Recordings in \(locale) use the model \(name) from now on")
        listener.modelsChanged(.inUseChanged)
        transcriber.prepareIfPicked(locale)
    }

    /// Makes the Whisper model `name` write each utterance of the recordings in `locale` again; none when empty.
    private func useAccurate(_ name: String, in locale: String) throws(ModelError) {
        if !name.isEmpty, !isInstalled(name, of: locale) { try install(locale, model: name) }
        let chosen = name.isEmpty ? nil : name
        guard accurateChoices[locale] != chosen else { return }
        accurateChoices[locale] = chosen
        accurateChoices.keep()
        Log.info("Recordings in \(locale) are written again \(chosen.map { "by \($0)" } ?? "by no Whisper model") from now on")
        listener.modelsChanged(.inUseChanged)
    }

    /// The locale and model a kept recording is transcribed again with, installing the model when it is missing.
    /// - Parameters:
    ///   - tag: the locale.
    ///   - name: a model of it; nil for the one recordings in it use, else the catalog's small one.
    /// - Throws: `unsupportedLocale`, `noSuchModel` when neither this machine nor the catalog has it, `notInCatalog`
    ///   when no model is named and none is on disk or in the catalog, `failed` when its installation cannot begin.
    public func modelForTranscribing(_ tag: String, model name: String?) throws(ModelError) -> (locale: String, model: String) {
        let locale = try servedLocale(tag)
        let chosen: String
        if let named = name ?? modelsInUse[locale] { chosen = named } else { chosen = try catalogEntry(for: locale).name }
        if !isInstalled(chosen, of: locale) { try install(locale, model: chosen) }
        return (locale, chosen)
    }

    private func isInstalled(_ name: String, of locale: String) -> Bool {
        known.installed.contains { $0.locale == locale && $0.name == name }
    }

    private func begin(_ entry: CatalogEntry, for locale: String) throws(ModelError) {
        let installation: ModelInstallation
        do throws(InstallError) {
            installation = try ModelInstallation(entry: entry, modelsFolder: places.notula, downloadsFolder: places.downloads)
        } catch {
            throw .failed(error.message)
        }
        if let superseded = installing {
            superseded.installation.cancel()
            // Their model is not coming: they go on, and fail saying so.
            superseded.waiters.values.forEach { $0.resume() }
        }
        installing = Installing(locale: locale, model: entry.name, installation: installation)
        Log.info("Installing \(entry.name) for \(locale) from \(entry.url.absoluteString)")
        listener.modelsChanged(.downloadStarted(locale: locale, model: entry.name, bytes: UInt64(max(0, entry.size))))
        let throttle = ProgressThrottle()
        let total = Double(max(1, entry.size))
        let loads = self.loads
        Task {
            let outcome: Result<InstalledModel, InstallError>
            do throws(InstallError) {
                outcome = .success(
                    try await installation.run(
                        progress: { received in
                            guard throttle.allows() else { return }
                            Task { await self.progressed(installation, min(1, Double(received) / total)) }
                        }, loads: loads))
            } catch {
                outcome = .failure(error)
            }
            ended(installation, locale: locale, outcome)
        }
    }

    /// Cancels the installation in flight; its end is reported as `downloadCancelled` once its files are gone.
    public func cancel() {
        installing?.installation.cancel()
    }

    /// Deletes the models Notula installed for `tag`.
    /// - Throws: `notInstalled` when none is installed; `notInstalledByNotula` when every model of the locale is
    ///   outside Notula's folder; `failed` when one cannot be deleted.
    public func remove(_ tag: String) throws(ModelError) {
        let wanted = tag.replacing("_", with: "-").lowercased()
        let installed = installedLocales
        let models = known.installed.filter { $0.locale.lowercased() == wanted }
        guard let first = models.first else { throw .notInstalled(tag: tag, installed: installed) }
        let notulas = models.filter { $0.path.hasPrefix(places.notula + "/") }
        guard !notulas.isEmpty else { throw .notInstalledByNotula(locale: first.locale, path: first.path) }
        for model in notulas { try delete(model) }
    }

    /// Deletes the model `name` of `tag`, which Notula installed; a locale whose chosen model it was goes back to
    /// the best one left.
    /// - Throws: `noSuchModel` when it is not on disk; `notInstalledByNotula` outside Notula's folder; `failed` when
    ///   it cannot be deleted.
    public func remove(_ tag: String, model name: String) throws(ModelError) {
        let locale = try servedLocale(tag)
        let ofLocale = known.installed.filter { $0.locale == locale }
        guard let model = ofLocale.first(where: { $0.name == name }) else {
            throw .noSuchModel(locale: locale, model: name, models: ofLocale.map(\.name))
        }
        guard model.path.hasPrefix(places.notula + "/") else { throw .notInstalledByNotula(locale: locale, path: model.path) }
        try delete(model)
    }

    private func delete(_ model: InstalledModel) throws(ModelError) {
        // Renamed first, so that the model disappears at once rather than file by file.
        let doomed = places.notula + "/.removing-" + model.name
        guard rename(model.path, doomed) == 0 else {
            throw .failed("Cannot delete \(model.path): \(String(cString: strerror(errno))).")
        }
        try? FileManager.default.removeItem(atPath: doomed)
        Log.info("Removed the \(model.locale) model \(model.path)")
        if choices[model.locale] == model.name {
            choices[model.locale] = nil
            choices.keep()
            listener.modelsChanged(.inUseChanged)
        }
        let accurate = accurateChoices.all
        if accurate.values.contains(model.name) {
            for (locale, name) in accurate where name == model.name { accurateChoices[locale] = nil }
            accurateChoices.keep()
            listener.modelsChanged(.inUseChanged)
        }
        rescan()
    }

    /// Returns when no model of `locale` is being installed: a recording sent before its model was ready waits here.
    /// A discarded recording stops waiting at once, so that the next one can start.
    public func settled(_ locale: String) async {
        guard installing?.locale == locale else { return }
        waiterCount += 1
        let waiter = waiterCount
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                guard !Task.isCancelled, installing != nil else { return continuation.resume() }
                installing?.waiters[waiter] = continuation
            }
        } onCancel: {
            Task { await self.stopWaiting(waiter) }
        }
    }

    private func stopWaiting(_ waiter: Int) {
        installing?.waiters.removeValue(forKey: waiter)?.resume()
    }

    /// The catalog's current model `name` of `locale`.
    private func catalogEntry(for locale: String, named name: String) throws(ModelError) -> CatalogEntry {
        let choosable = known.choosable.filter { $0.locales.contains(locale) }
        guard let entry = choosable.first(where: { $0.name == name }) else {
            let onDisk = known.installed.filter { $0.locale == locale }.map(\.name)
            throw .noSuchModel(locale: locale, model: name, models: Array(Set(choosable.map(\.name) + onDisk)).sorted())
        }
        return entry
    }

    /// The catalog's model of the locale `tag` names.
    private func catalogEntry(for tag: String) throws(ModelError) -> CatalogEntry {
        let locale = try supportedLocale(tag)
        guard let entry = known.catalog.model(for: locale), entry.locale == locale else { throw .notInCatalog(locale: locale) }
        return entry
    }

    // MARK: Installation reports

    private func progressed(_ installation: ModelInstallation, _ progress: Double) {
        guard let current = installing, current.installation === installation, progress > current.progress else { return }
        installing?.progress = progress
        listener.modelsChanged(.downloadProgressed(locale: current.locale, fraction: progress))
    }

    private func ended(_ installation: ModelInstallation, locale: String, _ outcome: Result<InstalledModel, InstallError>) {
        let current = installing?.installation === installation
        switch outcome {
        case .success(let model):
            Log.info("Installed \(model.name) for \(locale) in \(model.path)")
            rescan()
            listener.modelsChanged(.downloadFinished(locale: locale, model: model.name))
            transcriber.prepareIfPicked(locale)
        case .failure(.cancelled):
            Log.info("Cancelled the installation of the \(locale) model")
            listener.modelsChanged(.downloadCancelled(locale: locale))
        case .failure(let error):
            Log.warning("Installing the \(locale) model failed: \(error.message)")
            listener.modelsChanged(.downloadFailed(locale: locale, reason: error.message))
        }
        guard current, let ended = installing else { return }
        installing = nil
        ended.waiters.values.forEach { $0.resume() }
        listener.modelsChanged(.downloadEnded(locale: locale))
    }

    /// Looks at the model folders again; the listener hears of a change.
    func rescan() {
        let found = InstalledModels.all(places: places.all)
        guard found != known.installed else { return }
        let supportedBefore = known.supportedLocales
        known.installed = found
        listener.modelsChanged(.localesChanged(installed: true, supported: supportedBefore != known.supportedLocales))
    }
}
