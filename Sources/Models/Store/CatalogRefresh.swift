import Recording

extension ModelStore {
    /// Starts fetching the catalog unless a fetch is in flight; a pick or an installation that comes meanwhile and
    /// that the known catalog cannot serve waits for it.
    public func startRefresh() {
        guard !isFetchingCatalog else { return }
        let (source, accurateSources) = (catalogs.source, catalogs.accurateSources)
        catalogFetch = Task {
            let outcome: Result<ModelCatalog, CatalogError>
            do throws(CatalogError) { outcome = .success(try await source.fetch()) } catch { outcome = .failure(error) }
            var accurate: [AccurateCatalog: ModelCatalog] = [:]
            for (engine, source) in accurateSources {
                do throws(CatalogError) { accurate[engine] = try await source.fetch() } catch { Log.warning(error.message) }
            }
            return fetched(outcome, accurate: accurate)
        }
    }

    /// Fetches the catalog again (or waits for the fetch in flight) and looks at the model folders again.
    /// - Throws: `failed` saying why when the catalog cannot be fetched; the one known before stays.
    public func refresh() async throws(ModelError) {
        startRefresh()
        guard let fetch = catalogFetch else { return }
        try await fetch.value.get()
    }

    /// Returns once the catalog fetch in flight has ended, or `catalogWait` has passed.
    func catalogSettled() async {
        guard isFetchingCatalog else { return }
        waiterCount += 1
        let waiter = waiterCount
        let limit = catalogs.wait
        let timeout = Task {
            try? await Task.sleep(for: limit)
            catalogWaiters.removeValue(forKey: waiter)?.resume()
        }
        await withCheckedContinuation { catalogWaiters[waiter] = $0 }
        timeout.cancel()
    }

    /// Takes what a fetch brought: Vosk's catalog, or why not, and the accurate pass's catalogs that were fetched.
    private func fetched(_ outcome: Result<ModelCatalog, CatalogError>, accurate: [AccurateCatalog: ModelCatalog]) -> Result<Void, ModelError> {
        catalogFetch = nil
        let supportedBefore = catalogs.known.supportedLocales
        for (engine, catalog) in accurate where catalog != catalogs.known[engine] {
            catalogs.known[engine] = catalog
            listener.modelsChanged(.catalogChanged)
        }
        if case .success(let fetched) = outcome, fetched != catalogs.known.catalog {
            catalogs.known.catalog = fetched
            listener.modelsChanged(.catalogChanged)
        }
        switch outcome {
        case .success: catalogs.voskFetch = .fetched
        case .failure(let error): catalogs.voskFetch = .failed(error.message)
        }
        if catalogs.known.supportedLocales != supportedBefore { listener.modelsChanged(.localesChanged(installed: false, supported: true)) }
        rescan()
        // In the order they came, so that picks take effect in that order.
        for waiter in catalogWaiters.keys.sorted() { catalogWaiters.removeValue(forKey: waiter)?.resume() }
        return outcome.map { _ in () }.mapError { .failed($0.message) }
    }
}
