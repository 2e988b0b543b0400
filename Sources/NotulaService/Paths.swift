import FoundationEssentials

/// Notula's own XDG folders: nothing is written anywhere else.
public struct Paths: Sendable {
    /// `$XDG_DATA_HOME/notula`: recordings, models and the memo library.
    public let data: String
    /// `$XDG_CONFIG_HOME/notula`: settings.json.
    public let config: String
    /// `$XDG_CACHE_HOME/notula`: what can be fetched again (the model catalog, downloads in progress).
    public let cache: String

    public var recordings: String { data + "/recordings" }
    /// The memo library: every memo's row, transcript and search index.
    public var library: String { data + "/library.sqlite3" }
    public var settingsFile: String { config + "/settings.json" }
    /// The user's own replacements: spoken phrase, tab, written text.
    public var replacementsFile: String { config + "/replacements.tsv" }
    /// The user's own words and phrases, a term a line (`Vocabulary`).
    public var vocabularyFile: String { config + "/vocabulary.txt" }
    public var models: String { data + "/models" }
    /// The texts of memos the user opened from a notification.
    public var transcripts: String { data + "/transcripts" }
    public var downloads: String { cache + "/downloads" }
    /// The sinks Notula muted while recording (`muteOutput`), until it unmuted them: a crash is undone at the next start.
    public var mutedOutputs: String { data + "/muted-outputs" }

    public init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        let home = environment["HOME"] ?? "/"
        func base(_ variable: String, _ fallback: String) -> String {
            // The spec: a relative path in an XDG variable is invalid and is ignored.
            guard let value = environment[variable], value.hasPrefix("/") else { return home + "/" + fallback }
            return value
        }
        data = base("XDG_DATA_HOME", ".local/share") + "/notula"
        config = base("XDG_CONFIG_HOME", ".config") + "/notula"
        cache = base("XDG_CACHE_HOME", ".cache") + "/notula"
    }
}
