/// Why the model store refused a request; each message is meant for the user.
public enum ModelError: Error, Sendable, Equatable {
    /// No model on this machine nor in the catalog serves `tag`.
    case unsupportedLocale(tag: String, supported: [String])
    /// `locale` is supported only by a model on this machine: the catalog has none to download.
    case notInCatalog(locale: String)
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
        case .unsupportedLocale(let tag, let supported):
            let choices =
                supported.isEmpty
                ? "none: no speech model is installed and Vosk's catalog could not be fetched yet" : supported.joined(separator: ", ")
            return "No speech model serves '\(tag)'. Supported: \(choices)"
        case .notInCatalog(let locale): return "Vosk's catalog has no model for \(locale) to install."
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
