import FoundationEssentials
import Recording

/// One memo as the library keeps it: a row from the moment its recording starts.
public struct Memo: Sendable, Equatable {
    /// The recording's id: microseconds since the epoch when it started.
    public var id: String
    public var title: String
    /// Microseconds since the epoch when the recording started.
    public var created: Int64
    /// Seconds of audio.
    public var duration: Double
    public var locale: String
    public var status: MemoStatus
    /// Absolute path of the WAV file.
    public var audioFile: String
    /// The recognised words, as the recogniser gave them; empty until transcribed.
    public var transcript: String
    public var words: [Word]
    /// The text as written: the spoken punctuation and commands of its language and the user's replacements
    /// applied. What is delivered, exported and searched; empty until transcribed.
    public var written: String
    /// Why transcription failed, for a memo whose status is `failed`.
    public var failure: String?
    /// The speech model that wrote its text: `vosk-model-small-ko-0.22`; empty until transcribed.
    public var model: String
    /// Which model wrote each utterance, where an accurate pass wrote some; empty when `model` wrote it all.
    public var utteranceModels: [UtteranceModel]

    /// A memo whose recording starts now, titled after its start time.
    public init(id: String, created: Int64, locale: String, audioFile: String, timeZone: TimeZone = .current) {
        self.id = id
        self.title = Self.defaultTitle(created: created, timeZone: timeZone)
        self.created = created
        self.duration = 0
        self.locale = locale
        self.status = .recording
        self.audioFile = audioFile
        self.transcript = ""
        self.words = []
        self.written = ""
        self.failure = nil
        self.model = ""
        self.utteranceModels = []
    }

    /// Words a title takes from the text, and characters at most (for languages written without spaces).
    static let titleWords = 6
    static let titleCharacters = 60

    /// Whether the user named it: its title is no longer the one its start time gave (in this zone: a title from
    /// another zone counts as the user's, so it is never replaced).
    public var isRenamed: Bool { title != Self.defaultTitle(created: created, timeZone: .current) }

    /// Titles it from the first words of `written` — at most six, cut at a word boundary, "…" when there were more —
    /// unless the user renamed it; a text with no words leaves the date title.
    /// - Parameter previous: the text it had: a title taken from it is not the user's, and is replaced too.
    public mutating func takeTitle(from written: String, replacing previous: String = "") {
        let titledByPrevious = Self.title(from: previous).map { $0 == title } ?? false
        guard !isRenamed || titledByPrevious else { return }
        title = Self.title(from: written) ?? Self.defaultTitle(created: created, timeZone: .current)
    }

    static func title(from written: String) -> String? {
        let words = written.split(whereSeparator: \.isWhitespace)
        guard !words.isEmpty else { return nil }
        var title = words.prefix(titleWords).joined(separator: " ")
        var cut = words.count > titleWords
        if title.count > titleCharacters {
            title = String(title.prefix(titleCharacters))
            cut = true
        }
        guard cut else { return title }
        // A cut ends on a word, not on the punctuation that followed it.
        while let last = title.last, last.isPunctuation { title.removeLast() }
        return title + "…"
    }

    /// "Memo 2026-11-29 21:47": the start time in the user's zone, until the user renames it.
    public static func defaultTitle(created: Int64, timeZone: TimeZone) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let date = Date(timeIntervalSince1970: Double(created) / 1_000_000)
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute], from: date)
        func two(_ value: Int?) -> String { (value ?? 0) < 10 ? "0\(value ?? 0)" : "\(value ?? 0)" }
        return "Memo \(parts.year ?? 0)-\(two(parts.month))-\(two(parts.day)) \(two(parts.hour)):\(two(parts.minute))"
    }
}

/// Where a memo is in its life; `recovered` marks one repaired after the service died while it was
/// recording or transcribing.
public enum MemoStatus: String, Sendable, CaseIterable {
    case recording, transcribing, done, failed, recovered
}

/// A memo found by a search: its id and the text around the match, the matched words in «».
public struct SearchHit: Sendable, Equatable {
    public var id: String
    public var snippet: String
}
