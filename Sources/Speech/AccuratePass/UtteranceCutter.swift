import Recording

/// Where utterances end by the level meter: after `silenceSeconds` of frames below `level` that follow speech, or
/// when one has lasted `longestSeconds` (a Whisper window is 30 s). Where Silero's detector is not installed, or
/// while it cannot hear.
public struct UtteranceCutter: UtteranceEnding {
    /// dBFS: quieter frames are silence.
    static let level = -45.0
    static let silenceSeconds = 0.6
    static let longestSeconds = 25.0
    private static let sampleRate = 16_000.0

    private let silence: Double
    private let longest: Double
    private var frames = SpeechFrames(level: level)
    /// Samples taken since the recording started.
    private var position = 0
    /// The sample where the utterance under way began, when one is.
    private var speechStart: Int?
    /// The sample after its last frame of speech.
    private var speechEnd = 0

    public init() {
        self.init(silence: Self.silenceSeconds, longest: Self.longestSeconds)
    }

    /// - Parameters:
    ///   - silence: the quiet, in seconds, that ends an utterance.
    ///   - longest: the seconds after which an utterance ends though it goes on.
    init(silence: Double, longest: Double) {
        self.silence = silence
        self.longest = longest
    }

    /// Takes the next samples (16-bit little-endian); the utterances they end, in seconds of the recording.
    public mutating func take(_ bytes: [UInt8]) -> [(start: Double, end: Double)] {
        var ended: [(start: Double, end: Double)] = []
        bytes.withUnsafeBytes { samples in
            samples.forEachSample { sample in
                position += 1
                guard let speech = frames.take(sample) else { return }
                if speech {
                    if speechStart == nil { speechStart = position - SpeechFrames.frameSamples }
                    speechEnd = position
                }
                guard let start = speechStart else { return }
                let quiet = Double(position - speechEnd) / Self.sampleRate
                let length = Double(position - start) / Self.sampleRate
                if quiet >= silence || length >= longest {
                    ended.append((Double(start) / Self.sampleRate, Double(speechEnd) / Self.sampleRate))
                    speechStart = nil
                }
            }
        }
        return ended
    }

    /// The utterance under way when the recording ends, if speech began one.
    public mutating func rest() -> [(start: Double, end: Double)] {
        defer { speechStart = nil }
        return speechStart.map { [(Double($0) / Self.sampleRate, Double(speechEnd) / Self.sampleRate)] } ?? []
    }
}
