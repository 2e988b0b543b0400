/// Where utterances end in a recording no Vosk model follows: each span in seconds of the recording.
public protocol UtteranceEnding {
    /// Takes the next samples (16-bit little-endian); the utterances they end.
    mutating func take(_ bytes: [UInt8]) -> [(start: Double, end: Double)]

    /// The recording has ended: the utterances still under way.
    mutating func rest() -> [(start: Double, end: Double)]
}
