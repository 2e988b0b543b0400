/// A recording's latest audio, kept on the transcription queue for the accurate pass: the samples since the last
/// utterance it handed out, at most `maximumSeconds` of them.
final class UtteranceAudio {
    private static let sampleRate = 16_000
    /// Speech that never pauses (a radio beside the microphone) keeps at most this much: 1.9 MB.
    static let maximumSeconds = 60
    /// After the last word: Vosk's times cut a word's edges close.
    static let padding = 0.25
    /// Before the first word, of the quiet since the previous utterance: Vosk's first time can come a word late
    /// (the Korean model hearing English put "The" before it).
    static let lead = 1.0

    /// 16-bit little-endian samples.
    private var bytes: [UInt8] = []
    /// The index in the recording of the first sample kept.
    private var firstSample = 0

    func append(_ more: [UInt8]) {
        bytes += more
        let excess = bytes.count - Self.maximumSeconds * Self.sampleRate * 2
        if excess > 0 {
            let dropped = excess + excess % 2
            bytes.removeFirst(dropped)
            firstSample += dropped / 2
        }
    }

    /// The audio from `start` to `end` seconds of the recording, `lead` before and `padding` after, clipped to what is
    /// kept, and where it starts; what comes before its end is let go.
    func take(from start: Double, to end: Double) -> (audio: [UInt8], offset: Double) {
        let taken = copy(from: start - Self.lead, to: end + Self.padding)
        let kept = max(firstSample, Int(end * Double(Self.sampleRate)))
        bytes.removeFirst((kept - firstSample) * 2)
        firstSample = kept
        return (taken.audio, taken.start)
    }

    /// The audio from `start` to `end` seconds of the recording, clipped to what is kept, and the seconds it spans.
    func copy(from start: Double, to end: Double) -> (audio: [UInt8], start: Double, end: Double) {
        let rate = Double(Self.sampleRate)
        let from = max(firstSample, Int(start * rate))
        let to = max(from, min(firstSample + bytes.count / 2, Int(end * rate)))
        return (Array(bytes[(from - firstSample) * 2..<(to - firstSample) * 2]), Double(from) / rate, Double(to) / rate)
    }
}
