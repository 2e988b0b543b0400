/// Which model wrote the text of one utterance: Whisper's where the accurate pass decoded it, Vosk's where it did
/// not (it failed, or the memo was sent before). Kept with a memo and exported beside its words' timings.
public struct UtteranceModel: Sendable, Equatable, Codable {
    /// Seconds from the start of the recording's audio: its first word's start and its last word's end.
    public var start: Double
    public var end: Double
    public var model: String

    public init(start: Double, end: Double, model: String) {
        self.start = start
        self.end = end
        self.model = model
    }
}
