/// What happens to the speech models, as the model store reports it.
public enum ModelEvent: Sendable, Equatable {
    /// An installation began: `bytes` is the archive's size in the catalog.
    case downloadStarted(locale: String, model: String, bytes: UInt64)
    /// The share of the archive received so far, between 0 and 1; at most four times a second.
    case downloadProgressed(locale: String, fraction: Double)
    case downloadFinished(locale: String, model: String)
    /// Cancelled, or superseded by the installation of another locale; its files are gone.
    case downloadCancelled(locale: String)
    case downloadFailed(locale: String, reason: String)
    /// The installation of `locale` is over and no other is under way: nothing is being downloaded.
    case downloadEnded(locale: String)
    /// The installed models (and so the models in use), the supported locales, or both, are not what they were.
    case localesChanged(installed: Bool, supported: Bool)
    /// A catalog with other models was fetched: the available models changed.
    case catalogChanged
    /// The user chose another model for a locale.
    case inUseChanged
}

/// Hears the model store's events, in order, on the store's executor.
public protocol ModelListener: Sendable {
    func modelsChanged(_ event: ModelEvent)
}
