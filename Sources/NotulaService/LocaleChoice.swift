import Models
import Recording
import Synchronization

/// The language recordings are transcribed in — the recorder's `Locale`, kept in settings.json — and its pick, which
/// the models serve: the one place a locale is chosen, whether `Locale` is set or the tray's language item clicked.
final class LocaleChoice: Sendable {
    /// A pick that took effect, or one that takes effect once the catalog being fetched is known.
    enum Pick: Sendable {
        case done
        case onceFetched(@Sendable () async throws(ModelError) -> Void)
    }

    private let value: Mutex<String>
    private let others: Mutex<[String]>
    private let settingsFile: String
    /// Told of each pick once it took effect, on the models' executor (the bus's).
    private let announce: @Sendable (String) -> Void

    /// The kept locale, else one guessed from the user's environment without keeping it: a catalog fetched later may
    /// guess better. A kept one no model serves (`de`, `de_AT` written by hand, or one the cached catalog no longer
    /// has) becomes the closest supported one, kept as a pick keeps it, and the journal says so.
    init(
        kept: String?, alsoSpoken: [String]? = nil, known: ModelStore.Known, environment: [String: String], settingsFile: String,
        announce: @escaping @Sendable (String) -> Void
    ) {
        value = Mutex(kept ?? PreferredLocale.fromEnvironment(environment, supported: known.supportedLocales))
        others = Mutex(((try? SpokenLanguages(alsoSpoken ?? [])) ?? SpokenLanguages()).tags)
        self.settingsFile = settingsFile
        self.announce = announce
        guard let kept else { return }
        let realigned = PreferredLocale.realigned(
            kept, supported: known.supportedLocales, catalogKnown: !known.catalog.supportedLocales.isEmpty, environment: environment)
        guard realigned != kept else { return }
        Log.info(
            "The locale kept in settings.json, \(kept.prefix(40)), is not one a model serves: transcribing in \(realigned), the closest")
        keep(realigned)
    }

    var current: String { value.withLock { $0 } }

    /// The other languages the user speaks, as BCP 47 tags (`AlsoSpoken`).
    var alsoSpoken: [String] { others.withLock { $0 } }

    /// Keeps `languages` as the other languages the user speaks.
    func speak(also languages: SpokenLanguages) {
        others.withLock { $0 = languages.tags }
        Settings.update(at: settingsFile) { $0.alsoSpoken = languages.tags.isEmpty ? nil : languages.tags }
    }

    /// Makes `tag` (or the supported locale it names) the one recordings are transcribed in, its model loaded or
    /// installed by `models`. While the catalog is being fetched, a tag it may serve is picked once it is known.
    /// Called on the models' executor.
    /// - Throws: `unsupportedLocale` when no model serves `tag`.
    func pick(_ tag: String, servedBy models: ModelStore) throws(ModelError) -> Pick {
        let keep: @Sendable (String) -> Void = { self.keep($0) }
        guard !models.assumeIsolated({ $0.isFetchingCatalog }) else {
            let announce = announce
            return .onceFetched { () throws(ModelError) in try await Self.pickOnceFetched(tag, in: models, keep: keep, announce: announce) }
        }
        let picked = try models.assumeIsolated { models in
            Result { () throws(ModelError) in try models.pick(tag, choosing: keep) }
        }.get()
        announce(picked)
        return .done
    }

    private static func pickOnceFetched(
        _ tag: String, in models: isolated ModelStore, keep: @escaping @Sendable (String) -> Void,
        announce: @Sendable (String) -> Void
    ) async throws(ModelError) {
        announce(try await models.pickOnceFetched(tag, choosing: keep))
    }

    private func keep(_ locale: String) {
        value.withLock { $0 = locale }
        Settings.update(at: settingsFile) { $0.locale = locale }
    }
}
