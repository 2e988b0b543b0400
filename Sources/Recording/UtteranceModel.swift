/// Which model wrote the text of one utterance: Whisper's where the accurate pass decoded it, Vosk's where it did
/// not (it failed, or the memo was sent before), and the language it wrote it in where it chose among several. Kept
/// with a memo and exported beside its words' timings.
public struct UtteranceModel: Sendable, Equatable, Codable {
    /// Seconds from the start of the recording's audio: its first word's start and its last word's end.
    public var start: Double
    public var end: Double
    public var model: String
    /// Whisper's code of the language the utterance was written in, where the user speaks several; nil else.
    public var language: String?

    public init(start: Double, end: Double, model: String, language: String? = nil) {
        self.start = start
        self.end = end
        self.model = model
        self.language = language
    }
}
