import DBus
import FoundationEssentials
import Glibc
import Notifying
import Speech

/// The speech models: Vosk's catalog, the models on this machine, and the one installation in flight.
///
/// Shares the bus's executor, so that the Models object's properties and methods reach it synchronously, in the
/// order calls arrive; installations run off it and report back.
actor ModelStore {
    private let bus: Bus
    nonisolated var unownedExecutor: UnownedSerialExecutor { bus.unownedExecutor }

    private let places: ModelPlaces
    private let catalogSource: CatalogSource
    private let transcriber: Transcriber
    /// Shows downloads starting and ending unfinished as banners.
    private let notifier: Notifier
    /// Checks that an unpacked model loads before it is installed.
    private let loads: @Sendable (String) throws(SpeechError) -> Void
    private var known: Known
    private var installing: Installing?
    /// Numbers the waits for an installation, so that a cancelled one can be found.
    private var waiterCount = 0

    /// The catalog and the models on disk.
    struct Known: Sendable, Equatable {
        var catalog: ModelCatalog
        var installed: [InstalledModel]

        /// The catalog's locales and the installed ones, sorted.
        var supportedLocales: [String] { Set(catalog.supportedLocales + installed.map(\.locale)).sorted() }
    }

    private struct Installing {
        let locale: String
        let installation: ModelInstallation
        var progress = 0.0
        /// Transcriptions waiting for this model.
        var waiters: [Int: CheckedContinuation<Void, Never>] = [:]
    }

    init(
        bus: Bus, places: ModelPlaces, known: Known, catalogSource: CatalogSource, transcriber: Transcriber, notifier: Notifier,
        loads: @escaping @Sendable (String) throws(SpeechError) -> Void
    ) {
        self.notifier = notifier
        self.bus = bus
        self.places = places
        self.known = known
        self.catalogSource = catalogSource
        self.transcriber = transcriber
        self.loads = loads
    }

    // MARK: What the Models object shows

    var supportedLocales: [String] { known.supportedLocales }
    var installedLocales: [String] { known.installed.map(\.locale) }
    var downloadingLocale: String { installing?.locale ?? "" }
    var downloadProgress: Double { installing?.progress ?? 0 }

    /// The supported locale `tag` names (`ko_kr` names `ko-KR`).
    /// - Throws: `InvalidArgs` naming the supported locales when no model serves `tag`.
    func supportedLocale(_ tag: String) throws(BusError) -> String {
        let wanted = tag.replacing("_", with: "-").lowercased()
        let supported = supportedLocales
        guard let match = supported.first(where: { $0.lowercased() == wanted }) else {
            let choices =
                supported.isEmpty
                ? "none: no speech model is installed and Vosk's catalog could not be fetched yet" : supported.joined(separator: ", ")
            throw BusError.invalidArgs("No speech model serves '\(tag)'. Supported: \(choices)")
        }
        return match
    }

    // MARK: Methods

    /// The recorder's Locale is now `locale`: its model is readied, installed first when missing.
    func picked(_ locale: String) {
        if installedLocales.contains(locale) { return transcriber.prepare(locale) }
        installIfMissing(locale)
    }

    /// Installs the model of `locale` when none is on this machine and the catalog has one.
    func installIfMissing(_ locale: String) {
        guard !installedLocales.contains(locale), known.catalog.model(for: locale)?.locale == locale else { return }
        do throws(BusError) { try install(locale) } catch {
            Log.warning("Cannot install a model for \(locale): \(error.message)")
        }
    }

    /// Starts installing the model of `tag` in the background, cancelling an installation of another locale.
    /// Nothing happens when it is installed or being installed.
    /// - Throws: `InvalidArgs` for a tag no model serves.
    func install(_ tag: String) throws(BusError) {
        let locale = try supportedLocale(tag)
        guard !installedLocales.contains(locale), installing?.locale != locale else { return }
        guard let entry = known.catalog.model(for: locale), entry.locale == locale else {
            throw BusError.invalidArgs("Vosk's catalog has no model for \(locale) to install.")
        }
        let installation: ModelInstallation
        do throws(InstallError) {
            installation = try ModelInstallation(entry: entry, modelsFolder: places.notula, downloadsFolder: places.downloads)
        } catch {
            throw BusError(.notulaFailed, error.message)
        }
        if let superseded = installing {
            superseded.installation.cancel()
            // Their model is not coming: they go on, and fail saying so.
            superseded.waiters.values.forEach { $0.resume() }
        }
        installing = Installing(locale: locale, installation: installation)
        Log.info("Installing \(entry.name) for \(locale) from \(entry.url.absoluteString)")
        emit("DownloadStarted", [.string(locale), .string(entry.name), .uint64(UInt64(max(0, entry.size)))])
        banner(.started(locale: locale, name: entry.name, bytes: UInt64(max(0, entry.size))))
        changed("DownloadingLocale", "DownloadProgress")
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

    /// Cancels the installation in flight; its end is reported as `DownloadCancelled` once its files are gone.
    func cancel() {
        installing?.installation.cancel()
    }

    /// Deletes the model Notula installed for `tag`.
    /// - Throws: `InvalidArgs` when none is installed; `AccessDenied` for a model outside Notula's folder.
    func remove(_ tag: String) throws(BusError) {
        let wanted = tag.replacing("_", with: "-").lowercased()
        guard let model = known.installed.first(where: { $0.locale.lowercased() == wanted }) else {
            let list = installedLocales.isEmpty ? "none" : installedLocales.joined(separator: ", ")
            throw BusError.invalidArgs("No speech model for '\(tag)' is installed. Installed: \(list)")
        }
        guard model.path.hasPrefix(places.notula + "/") else {
            throw BusError(
                .accessDenied,
                "The \(model.locale) model in \(model.path) was not installed by Notula, which only deletes what is in its own folder.")
        }
        // Renamed first, so that the model disappears at once rather than file by file.
        let doomed = places.notula + "/.removing-" + model.name
        guard rename(model.path, doomed) == 0 else {
            throw BusError(.notulaFailed, "Cannot delete \(model.path): \(String(cString: strerror(errno))).")
        }
        try? FileManager.default.removeItem(atPath: doomed)
        Log.info("Removed the \(model.locale) model \(model.path)")
        rescan()
    }

    /// Fetches the catalog again and looks at the model folders again.
    /// - Throws: `Failed` saying why when the catalog cannot be fetched; the one known before stays.
    func refresh() async throws(BusError) {
        defer { rescan() }
        do throws(CatalogError) {
            let fetched = try await catalogSource.fetch()
            guard fetched != known.catalog else { return }
            let before = supportedLocales
            known.catalog = fetched
            if supportedLocales != before { changed("SupportedLocales") }
        } catch {
            throw BusError(.notulaFailed, error.message)
        }
    }

    /// Returns when no model of `locale` is being installed: a recording sent before its model was ready waits here.
    /// A discarded recording stops waiting at once, so that the next one can start.
    func settled(_ locale: String) async {
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

    // MARK: Installation reports

    private func progressed(_ installation: ModelInstallation, _ progress: Double) {
        guard installing?.installation === installation, progress > installing?.progress ?? 1 else { return }
        installing?.progress = progress
        changed("DownloadProgress")
    }

    private func ended(_ installation: ModelInstallation, locale: String, _ outcome: Result<InstalledModel, InstallError>) {
        let current = installing?.installation === installation
        switch outcome {
        case .success(let model):
            Log.info("Installed \(model.name) for \(locale) in \(model.path)")
            rescan()
            emit("DownloadFinished", [.string(locale), .string(model.name)])
            transcriber.prepareIfPicked(locale)
        case .failure(.cancelled):
            Log.info("Cancelled the installation of the \(locale) model")
            emit("DownloadCancelled", [.string(locale)])
            banner(.cancelled(locale: locale))
        case .failure(let error):
            Log.warning("Installing the \(locale) model failed: \(error.message)")
            emit("DownloadFailed", [.string(locale), .string(error.message)])
            banner(.failed(locale: locale, reason: error.message))
        }
        guard current, let ended = installing else { return }
        installing = nil
        ended.waiters.values.forEach { $0.resume() }
        changed("DownloadingLocale", "DownloadProgress")
    }

    private func rescan() {
        let found = InstalledModels.scan(places: places.all)
        guard found != known.installed else { return }
        let supportedBefore = supportedLocales
        known.installed = found
        changed(supportedBefore == supportedLocales ? ["InstalledLocales"] : ["InstalledLocales", "SupportedLocales"])
    }

    // MARK: Signals

    private func emit(_ member: MemberName, _ arguments: [Value]) {
        bus.assumeIsolated {
            try? $0.emit(path: NotulaBus.modelsPath, interface: NotulaBus.modelsInterface, member: member, arguments: arguments)
        }
    }

    private func banner(_ event: DownloadEvent) {
        notifier.assumeIsolated { $0.downloadChanged(event) }
    }

    private func changed(_ names: MemberName...) { changed(names) }

    private func changed(_ names: [MemberName]) {
        bus.assumeIsolated { $0.emitPropertiesChanged(path: NotulaBus.modelsPath, interface: NotulaBus.modelsInterface, names: names) }
    }
}
