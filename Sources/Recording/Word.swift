/// One recognised word with its place in the audio: what the speech engine produces and the
/// library keeps for exports with timings (as JSON, under these property names).
public struct Word: Sendable, Equatable, Codable {
    /// Seconds from the start of the recording's audio.
    public var start: Double
    /// Seconds from the start of the recording's audio.
    public var end: Double
    public var word: String
    /// The recogniser's confidence, 0…1.
    public var confidence: Double

    public init(start: Double, end: Double, word: String, confidence: Double) {
        self.start = start
        self.end = end
        self.word = word
        self.confidence = confidence
    }
}
