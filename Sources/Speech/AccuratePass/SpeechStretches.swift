import Recording

/// The stretches of a recording Silero hears speech in, followed as it is captured, for an engine that writes words
/// where nobody spoke (the live engine over music, coughs or noise): at its end, those outside every stretch go.
public struct SpeechStretches {
    /// Around each stretch: Silero ends speech at its quiet, and an engine may time a word's edge a little beyond.
    public static let margin = 0.3
    private let detector: VoiceCutter
    private var stretches: [(start: Double, end: Double)] = []

    init(_ detection: VoiceDetection) { detector = VoiceCutter(detection) }

    /// The next samples of the recording, 16-bit little-endian.
    mutating func take(_ bytes: [UInt8]) { stretches += detector.take(bytes) }

    /// `transcript` without its words outside every stretch heard, once the rest of the recording is heard.
    mutating func keepingSpeech(of transcript: Transcript) -> Transcript {
        stretches += detector.rest()
        return transcript.keepingWords(within: stretches, margin: Self.margin)
    }
}

extension Transcript {
    /// The words that overlap a stretch widened by `margin` seconds each side; the text theirs when any went.
    public func keepingWords(within stretches: [(start: Double, end: Double)], margin: Double) -> Transcript {
        let kept = words.filter { word in stretches.contains { word.end > $0.start - margin && word.start < $0.end + margin } }
        guard kept.count < words.count else { return self }
        var heard = self
        heard.words = kept
        heard.text = kept.map(\.word).joined(separator: " ")
        return heard
    }
}
