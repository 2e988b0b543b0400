import Recording

extension ModelStore {
    /// Starts fetching the catalog unless a fetch is in flight; a pick or an installation that comes meanwhile and
    /// that the known catalog cannot serve waits for it.
    public func startRefresh() {
        guard !isFetchingCatalog else { return }
        let (source, whisperSource) = (catalogs.source, catalogs.whisperSource)
        catalogFetch = Task {
            let outcome: Result<ModelCatalog, CatalogError>
            do throws(CatalogError) { outcome = .success(try await source.fetch()) } catch { outcome = .failure(error) }
            var whisper: ModelCatalog?
            do throws(CatalogError) { whisper = try await whisperSource?.fetch() } catch { Log.warning(error.message) }
            return fetched(outcome, whisper: whisper)
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

    /// Takes what a fetch brought: Vosk's catalog, or why not, and the Whisper catalog when one was fetched.
    private func fetched(_ outcome: Result<ModelCatalog, CatalogError>, whisper: ModelCatalog?) -> Result<Void, ModelError> {
        catalogFetch = nil
        if let whisper, whisper != catalogs.known.whisperCatalog {
            catalogs.known.whisperCatalog = whisper
            listener.modelsChanged(.catalogChanged)
        }
        defer {
            rescan()
            // In the order they came, so that picks take effect in that order.
            for waiter in catalogWaiters.keys.sorted() { catalogWaiters.removeValue(forKey: waiter)?.resume() }
        }
        switch outcome {
        case .success(let fetched):
            guard fetched != catalogs.known.catalog else { return .success(()) }
            let before = catalogs.known.supportedLocales
            catalogs.known.catalog = fetched
            listener.modelsChanged(.catalogChanged)
            if catalogs.known.supportedLocales != before { listener.modelsChanged(.localesChanged(installed: false, supported: true)) }
            return .success(())
        case .failure(let error):
            return .failure(.failed(error.message))
        }
    }
}
