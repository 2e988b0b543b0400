#if canImport(Glibc)
    import Glibc
#endif

/// 16 kHz samples judged 20 ms at a time: a frame louder than a level is speech. A frame's level, not a single
/// sample's, decides, so a click is not speech.
public struct SpeechFrames: Sendable {
    /// 20 ms.
    public static let frameSamples = SilenceDetector.sampleRate / 50

    /// dBFS: a frame louder than this is speech.
    let level: Double
    private var squares = 0.0
    private var fill = 0

    public init(level: Double) { self.level = level }

    /// Takes one sample; at the end of a frame, whether the frame was speech.
    public mutating func take(_ sample: Int16) -> Bool? {
        squares += Double(sample) * Double(sample)
        fill += 1
        guard fill == Self.frameSamples else { return nil }
        let rms = (squares / Double(Self.frameSamples)).squareRoot() / 32_768
        squares = 0
        fill = 0
        return rms > 0 && 20 * log10(rms) > level
    }
}
