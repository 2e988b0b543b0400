import Recording

/// The speech models, the one door to them: what the catalogs offer and what is on disk (`ModelCatalogs`), the
/// installation in flight and deletions (`ModelInstaller`), and the models chosen (`ModelSelection`).
///
/// Runs on the executor of `isolation` (the bus's, in the service), so that the Models object's properties and
/// methods reach it synchronously, in the order calls arrive; installations and catalog fetches run off it and
/// report back.
public actor ModelStore {
    private let isolation: any Actor
    public nonisolated var unownedExecutor: UnownedSerialExecutor { isolation.unownedExecutor }

    /// The catalogs and the models on disk.
    var catalogs: ModelCatalogs
    /// The installation in flight and deletions.
    private var installer: ModelInstaller
    /// The models chosen per locale, shared with the speech engine and the accurate pass.
    let selection: ModelSelection
    private let transcriber: any ModelPreparing
    /// Hears every download and change of locales.
    let listener: any ModelListener
    /// Numbers the waits for an installation or a catalog, so that one that ends early can be found.
    var waiterCount = 0
    /// The catalog fetch in flight.
    var catalogFetch: Task<Result<Void, ModelError>, Never>?
    var catalogWaiters: [Int: CheckedContinuation<Void, Never>] = [:]

    /// The catalogs and the models on disk.
    public struct Known: Sendable, Equatable {
        /// Vosk's.
        public var catalog: ModelCatalog
        /// Whisper's models: `WhisperCatalog.builtIn`, or the one `NOTULA_WHISPER_CATALOG` names.
        public var whisperCatalog: ModelCatalog
        /// sherpa-onnx's models: `SherpaCatalog.builtIn`, or the one `NOTULA_SHERPA_CATALOG` names.
        public var sherpaCatalog: ModelCatalog
        /// Every model on disk, as `InstalledModels.all(places:)` gives them.
        public var installed: [InstalledModel]

        public init(
            catalog: ModelCatalog, whisperCatalog: ModelCatalog = WhisperCatalog.builtIn, sherpaCatalog: ModelCatalog = SherpaCatalog.builtIn,
            installed: [InstalledModel]
        ) {
            self.catalog = catalog
            self.whisperCatalog = whisperCatalog
            self.sherpaCatalog = sherpaCatalog
            self.installed = installed
        }

        /// The catalog of the accurate pass's models of `engine`.
        public subscript(engine: AccurateCatalog) -> ModelCatalog {
            get { engine == .whisper ? whisperCatalog : sherpaCatalog }
            set { if engine == .whisper { whisperCatalog = newValue } else { sherpaCatalog = newValue } }
        }

        /// The locales a recording can be made in: those any catalog's current model serves, and those of the models
        /// on disk, sorted. Where no Vosk model follows a recording, the accurate pass's model writes it alone.
        public var supportedLocales: [String] {
            Set(catalog.supportedLocales + installed.map(\.locale) + choosable.flatMap(\.locales)).sorted()
        }

        /// Every current model a catalog lists.
        var choosable: [CatalogEntry] { catalog.choosable + whisperCatalog.choosable + sherpaCatalog.choosable }
    }

    /// The catalogs besides Vosk's, of the models that decode utterances.
    public enum AccurateCatalog: Sendable, CaseIterable {
        case whisper, sherpa
    }

    /// - Parameters:
    ///   - isolation: The actor whose executor the store shares.
    ///   - transcriber: Told of a locale picked or a model installed, to load it ahead of the next recording.
    public init(
        isolation: any Actor, catalogs: ModelCatalogs, installer: ModelInstaller, selection: ModelSelection = ModelSelection(),
        transcriber: any ModelPreparing, listener: any ModelListener
    ) {
        self.isolation = isolation
        self.catalogs = catalogs
        self.installer = installer
        self.selection = selection
        self.transcriber = transcriber
        self.listener = listener
    }

    /// The Whisper model of the accurate pass per locale.
    public var accurateChoices: ModelChoices { selection.accurate }

    // MARK: What the Models object shows

    /// The locales a model serves, in the catalog or on disk. The model folders are looked at again, so that a
    /// model put there meanwhile (by Vosk's tools, say) is listed.
    public var supportedLocales: [String] {
        rescan()
        return catalogs.known.supportedLocales
    }

    /// The locales of the models on disk, Whisper's included, looked for again.
    public var installedLocales: [String] {
        rescan()
        var seen: Set<String> = []
        return catalogs.known.installed.map(\.locale).filter { seen.insert($0).inserted }
    }

    /// Every model a user may choose: the catalog's current ones and those on disk, by locale and name; the bytes an
    /// installed one takes on disk, else its download's.
    public var availableModels: [AvailableModel] {
        rescan()
        return catalogs.availableModels()
    }

    /// The model recordings use, per locale with a model on disk: the one chosen, else the best there is.
    public var modelsInUse: [String: String] {
        selection.inUse(in: installedLocales, among: catalogs.known.installed)
    }

    public var downloadingLocale: String { installer.current?.locale ?? "" }
    public var downloadProgress: Double { installer.current?.progress ?? 0 }
    /// Whether the catalog is being fetched: a pick or an installation then best waits for it (`…OnceFetched`).
    public var isFetchingCatalog: Bool { catalogFetch != nil }

    /// The supported locale `tag` names (`ko_kr` names `ko-KR`): one a recording can be made in.
    /// - Throws: `unsupportedLocale` naming the supported locales when no model serves `tag`.
    public func supportedLocale(_ tag: String) throws(ModelError) -> String {
        rescan()
        return try catalogs.locale(tag, fetching: isFetchingCatalog)
    }

    // MARK: Methods

    /// Makes the locale `tag` names the one recordings are transcribed in: `choose` is given it, then its model
    /// is readied, installed first when missing.
    /// - Returns: The supported locale picked.
    /// - Throws: `unsupportedLocale` when no model serves `tag`; nothing is chosen then.
    public func pick(_ tag: String, choosing choose: (String) -> Void) throws(ModelError) -> String {
        let locale = try supportedLocale(tag)
        choose(locale)
        if catalogs.known.installed.contains(where: { $0.locale == locale && $0.isLive }) {
            transcriber.prepare(locale)
        } else {
            installIfMissing(locale)
        }
        return locale
    }

    /// `pick(_:choosing:)`, after the catalog fetch in flight when no model of `tag` is on disk: the first pick after
    /// a start is neither refused for want of a catalog that is on its way nor given another model than Vosk's.
    public func pickOnceFetched(_ tag: String, choosing choose: @Sendable (String) -> Void) async throws(ModelError) -> String {
        if !hasModel(of: tag) { await catalogSettled() }
        return try pick(tag, choosing: choose)
    }

    /// Installs the model `locale` brings (`RecommendedModels`) when a catalog has one and it is missing: Vosk's
    /// when no model follows the locale live (an accurate one may be there), else when no model of it is on disk.
    public func installIfMissing(_ locale: String) {
        guard (try? catalogs.recommended(for: locale)) != nil else { return }
        do throws(ModelError) { try install(locale) } catch {
            Log.warning("Cannot install a model for \(locale): \(error.message)")
        }
    }

    /// At start, for the locale recordings are made in: `installIfMissing(_:)` when it brings Vosk's model. An accurate
    /// model (half a gigabyte for Parakeet) waits for the user to pick the locale.
    public func installLiveModelIfMissing(_ locale: String) {
        guard let entry = try? catalogs.recommended(for: locale), !entry.kind.isAccurate else { return }
        installIfMissing(locale)
    }

    /// `install(_:)`, after the catalog fetch in flight when no model of `tag` is on disk: Vosk's catalog tells
    /// which model it brings.
    public func installOnceFetched(_ tag: String) async throws(ModelError) {
        if !hasModel(of: tag) { await catalogSettled() }
        try install(tag)
    }

    /// Whether a model of the locale `tag` names is on disk.
    private func hasModel(of tag: String) -> Bool {
        (try? supportedLocale(tag)).map { installedLocales.contains($0) } ?? false
    }

    /// Starts installing the model `tag` brings (`RecommendedModels`) in the background, cancelling an installation
    /// of another locale. Nothing happens while it is being installed, nor when a model follows the locale live, nor,
    /// where it brings an accurate model, when any model of it is on disk.
    /// - Throws: `unsupportedLocale` for a tag no model serves, `notInCatalog` when no catalog known has its model,
    ///   `failed` for a catalog entry that cannot be installed.
    public func install(_ tag: String) throws(ModelError) {
        let locale = try supportedLocale(tag)
        let onDisk = catalogs.known.installed.filter { $0.locale == locale }
        guard !onDisk.contains(where: \.isLive), installer.current?.locale != locale else { return }
        // An accurate model of the locale does not stop its Vosk model, which follows a recording live, from coming.
        let entry = try catalogEntry(for: locale)
        guard !entry.kind.isAccurate || onDisk.isEmpty else { return }
        try begin(entry, for: locale)
    }

    /// Starts installing the catalog's model `name` of `tag` in the background, cancelling any other installation.
    /// Nothing happens when it is installed or being installed.
    /// - Throws: `unsupportedLocale` for a tag no model serves, `noSuchModel` when the catalog has no current model of
    ///   that name for the locale, `failed` for a catalog entry that cannot be installed.
    public func install(_ tag: String, model name: String) throws(ModelError) {
        let locale = try supportedLocale(tag)
        guard !catalogs.isInstalled(name, of: locale), installer.current?.model != name else { return }
        try begin(try catalogs.entry(for: locale, named: name), for: locale)
    }

    /// `install(_:model:)`, after the catalog fetch in flight when the known catalog lacks the model.
    public func installOnceFetched(_ tag: String, model name: String) async throws(ModelError) {
        if (try? catalogs.entry(for: supportedLocale(tag), named: name)) == nil { await catalogSettled() }
        try install(tag, model: name)
    }

    /// Makes `name` the model recordings in `tag` use, kept in the settings; installed first when it is not on disk
    /// (until then recordings use the best model there is).
    /// - Throws: `unsupportedLocale`, `noSuchModel` when neither this machine nor the catalog has it, `failed` when its
    ///   installation cannot begin; nothing is chosen then.
    public func use(_ tag: String, model name: String) throws(ModelError) {
        let locale = try supportedLocale(tag)
        let whisper = name.isEmpty || catalogs.isAccurate(name)
        if !name.isEmpty, !catalogs.isInstalled(name, of: locale) { try install(locale, model: name) }
        guard selection.choose(name.isEmpty ? nil : name, for: locale, whisper: whisper) else { return }
        listener.modelsChanged(.inUseChanged)
        if !whisper { transcriber.prepareIfPicked(locale) }
    }

    /// The locale and model a kept recording is transcribed again with, installing the model when it is missing.
    /// - Parameters:
    ///   - tag: the locale.
    ///   - name: a model of it; nil for the one recordings in it use, else the catalog's small one.
    /// - Throws: `unsupportedLocale`, `noSuchModel` when neither this machine nor the catalog has it, `notInCatalog`
    ///   when no model is named and none is on disk or in the catalog, `failed` when its installation cannot begin.
    public func modelForTranscribing(_ tag: String, model name: String?) throws(ModelError) -> (locale: String, model: String) {
        let locale = try supportedLocale(tag)
        let chosen: String
        if let named = name ?? modelsInUse[locale] { chosen = named } else { chosen = try catalogEntry(for: locale).name }
        if !catalogs.isInstalled(chosen, of: locale) { try install(locale, model: chosen) }
        return (locale, chosen)
    }

    private func begin(_ entry: CatalogEntry, for locale: String) throws(ModelError) {
        let installation = try installer.begin(entry, for: locale)
        Log.info("Installing \(entry.name) for \(locale) from \(entry.url.absoluteString)")
        listener.modelsChanged(.downloadStarted(locale: locale, model: entry.name, bytes: UInt64(max(0, entry.size))))
        let throttle = ProgressThrottle()
        let total = Double(max(1, entry.size))
        let loads = installer.loads
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
        installer.current?.installation.cancel()
    }

    /// Deletes the models Notula installed for `tag`.
    /// - Throws: `notInstalled` when none is installed; `notInstalledByNotula` when every model of the locale is
    ///   outside Notula's folder; `failed` when one cannot be deleted.
    public func remove(_ tag: String) throws(ModelError) {
        let wanted = tag.replacing("_", with: "-").lowercased()
        let installed = installedLocales
        let models = catalogs.known.installed.filter { $0.locale.lowercased() == wanted }
        guard let first = models.first else { throw .notInstalled(tag: tag, installed: installed) }
        let notulas = models.filter(installer.isNotulas)
        guard !notulas.isEmpty else { throw .notInstalledByNotula(locale: first.locale, path: first.path) }
        for model in notulas { try delete(model) }
    }

    /// Deletes the model `name` of `tag`, which Notula installed; a locale whose chosen model it was goes back to
    /// the best one left.
    /// - Throws: `noSuchModel` when it is not on disk; `notInstalledByNotula` outside Notula's folder; `failed` when
    ///   it cannot be deleted.
    public func remove(_ tag: String, model name: String) throws(ModelError) {
        let locale = try supportedLocale(tag)
        let ofLocale = catalogs.known.installed.filter { $0.locale == locale }
        guard let model = ofLocale.first(where: { $0.name == name }) else {
            throw .noSuchModel(locale: locale, model: name, models: ofLocale.map(\.name))
        }
        guard installer.isNotulas(model) else { throw .notInstalledByNotula(locale: locale, path: model.path) }
        try delete(model)
    }

    private func delete(_ model: InstalledModel) throws(ModelError) {
        try installer.delete(model)
        if selection.forget(model) { listener.modelsChanged(.inUseChanged) }
        rescan()
    }

    /// Returns when no model of `locale` is being installed: a recording sent before its model was ready waits here.
    /// A discarded recording stops waiting at once, so that the next one can start.
    public func settled(_ locale: String) async {
        guard installer.current?.locale == locale else { return }
        waiterCount += 1
        let waiter = waiterCount
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                guard !Task.isCancelled else { return continuation.resume() }
                installer.wait(waiter, continuation)
            }
        } onCancel: {
            Task { await self.stopWaiting(waiter) }
        }
    }

    private func stopWaiting(_ waiter: Int) {
        installer.stopWaiting(waiter)
    }

    /// The model the locale `tag` names brings.
    private func catalogEntry(for tag: String) throws(ModelError) -> CatalogEntry {
        try catalogs.recommended(for: try supportedLocale(tag), fetching: isFetchingCatalog)
    }

    // MARK: Installation reports

    private func progressed(_ installation: ModelInstallation, _ progress: Double) {
        guard let locale = installer.progressed(installation, progress) else { return }
        listener.modelsChanged(.downloadProgressed(locale: locale, fraction: progress))
    }

    private func ended(_ installation: ModelInstallation, locale: String, _ outcome: Result<InstalledModel, InstallError>) {
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
        guard installer.ended(installation) else { return }
        listener.modelsChanged(.downloadEnded(locale: locale))
    }

    /// Looks at the model folders again; the listener hears of a change.
    func rescan() {
        let found = InstalledModels.all(places: installer.places.all)
        guard found != catalogs.known.installed else { return }
        let supportedBefore = catalogs.known.supportedLocales
        catalogs.known.installed = found
        listener.modelsChanged(.localesChanged(installed: true, supported: supportedBefore != catalogs.known.supportedLocales))
    }
}
