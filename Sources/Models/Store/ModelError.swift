/// Why the model store refused a request; each message is meant for the user.
public enum ModelError: Error, Sendable, Equatable {
    /// No model on this machine nor in a catalog serves `tag`; `catalog` says how far Vosk's catalog is known.
    case unsupportedLocale(tag: String, supported: [String], catalog: CatalogFetch)
    /// `locale` is supported only by a model on this machine: no catalog has one to download.
    case notInCatalog(locale: String, catalog: CatalogFetch)
    /// No model of `tag` is installed.
    case notInstalled(tag: String, installed: [String])
    /// The model is outside Notula's own folder (Vosk's tools put it there), so Notula leaves it alone.
    case notInstalledByNotula(locale: String, path: String)
    /// Neither the catalog nor this machine has a model of that name for the locale.
    case noSuchModel(locale: String, model: String, models: [String])
    /// The catalog could not be fetched, an installation not begun, a model not deleted: the message says why.
    case failed(String)

    public var message: String {
        switch self {
        case .unsupportedLocale(let tag, let supported, let catalog):
            let choices = supported.isEmpty ? "none" : supported.joined(separator: ", ")
            let known =
                switch catalog {
                case .fetched: supported.isEmpty ? ": no catalog lists a model, and none is installed." : "."
                case .fetching: ". Vosk's catalog is still on its way, so its models may be missing here: ask again in a moment."
                case .notFetched: ". Vosk's catalog has not been fetched yet, so its models may be missing here."
                case .failed(let reason): ". Vosk's catalog could not be fetched, so its models may be missing here: \(reason)"
                }
            return "No speech model serves '\(tag)'. Supported: \(choices)\(known)"
        case .notInCatalog(let locale, let catalog):
            switch catalog {
            case .fetched: return "No catalog has a model for \(locale) to install."
            case .fetching: return "Vosk's catalog is still on its way: a model for \(locale) can be installed once it is here."
            case .notFetched: return "Vosk's catalog has not been fetched yet: a model for \(locale) can be installed once it is."
            case .failed(let reason): return "No model for \(locale) can be chosen to install, as Vosk's catalog could not be fetched: \(reason)"
            }
        case .notInstalled(let tag, let installed):
            return "No speech model for '\(tag)' is installed. Installed: \(installed.isEmpty ? "none" : installed.joined(separator: ", "))"
        case .notInstalledByNotula(let locale, let path):
            return "The \(locale) model in \(path) was not installed by Notula, which only deletes what is in its own folder."
        case .noSuchModel(let locale, let model, let models):
            return "No speech model '\(model)' for \(locale). Its models: \(models.isEmpty ? "none" : models.joined(separator: ", "))"
        case .failed(let message): return message
        }
    }
}

/// How far Vosk's catalog is known, for a refusal to say.
public enum CatalogFetch: Sendable, Equatable {
    /// Never fetched, and no copy is cached.
    case notFetched
    case fetching
    /// Fetched, now or by an earlier start whose copy is cached.
    case fetched
    /// The last fetch failed, for the reason given.
    case failed(String)
}
