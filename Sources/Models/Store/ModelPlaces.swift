/// Where speech models are found, and the folders Notula installs them with.
public struct ModelPlaces: Sendable {
    /// Every folder to look for models in, best first: Vosk's own places, then Notula's.
    public let all: [String]
    /// `$XDG_DATA_HOME/notula/models`: where Notula installs models, and the only folder it deletes models from.
    public let notula: String
    /// `$XDG_CACHE_HOME/notula/downloads`: archives being downloaded, kept while incomplete to resume them.
    public let downloads: String

    public init(all: [String], notula: String, downloads: String) {
        self.all = all
        self.notula = notula
        self.downloads = downloads
    }
}
