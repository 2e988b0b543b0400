/// Whether a recording has gone quiet: speech heard, then none for a given length of recording. Counted in
/// samples (16 kHz mono, signed 16-bit little-endian), so paused time, which brings none, does not count, and
/// no clock is read.
public struct SilenceDetector: Sendable {
    /// Louder than this over a frame is speech: a quiet room through a laptop microphone stays below it.
    public static let speechLevel = -50.0
    static let sampleRate = 16_000

    /// Whether speech was heard since the recording started.
    public private(set) var heardSpeech = false
    /// Samples since the last frame of speech.
    private var quietSamples = 0
    private var frames = SpeechFrames(level: speechLevel)

    public init() {}

    /// Takes the next samples; true when speech was heard and the quiet after it has lasted `silence` seconds.
    /// A trailing odd byte is ignored: the capture hands whole samples.
    public mutating func hear(_ samples: UnsafeRawBufferPointer, silence: Double) -> Bool {
        samples.forEachSample { sample in
            guard let speech = frames.take(sample) else { return }
            if speech {
                heardSpeech = true
                quietSamples = 0
            } else {
                quietSamples += SpeechFrames.frameSamples
            }
        }
        return heardSpeech && silence > 0 && Double(quietSamples) >= silence * Double(Self.sampleRate)
    }
}
