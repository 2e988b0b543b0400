/// Encoding only an utterance's own length (`audio_ctx`) rather than Whisper's 30 s window: about a quarter of the
/// time for a few seconds of speech. whisper.cpp calls it experimental, and tiny.en sometimes repeats itself or
/// writes a sentence into near silence with it, so its text is taken only when it looks like speech of that length;
/// otherwise (or past its time budget) the utterance is decoded again in the full window.
struct FittedWindow {
    /// Whisper's encoder frames: 50 a second, 1500 in its full window.
    let frames: Int32
    /// The decoding's time budget: past it, the full window is cheaper than waiting.
    let budget: Duration
    let seconds: Double

    /// Longer utterances save less over the full window, and that a fitted one keeps the full window's text was
    /// shown on the bench's utterances up to about 10 s only.
    static let longestSeconds = 10.0

    /// The window for `sampleCount` samples at 16 kHz, or nil when the full window serves as well.
    init?(sampleCount: Int) {
        seconds = Double(sampleCount) / 16_000
        guard seconds > 0, seconds <= Self.longestSeconds else { return nil }
        // 64 frames of margin, and at least 10 s: on the eight test sentences, cut at 20 places each, 10 s misheard
        // 3.2 % of the words and the full window 6.8 %, in a third of its time; 5 s windows misheard far more.
        frames = Int32(max(500, (seconds * 50).rounded(.up) + 64))
        budget = .milliseconds(300) + .milliseconds(Int(seconds * 100))
    }

    /// Whether the text decoded in this window reads as speech of its length: nothing marked as silence, at most five
    /// words a second, no short phrase said three times running nor a longer one twice, no segment starting after the audio (the window's margin
    /// is silence: what is written there was not said).
    func accepts(_ segments: [WhisperModel.Segment], noSpeech: [Float]) -> Bool {
        let words = segments.flatMap { $0.text.lowercased().split(whereSeparator: \.isWhitespace) }
            .map { $0.filter { $0.isLetter || $0.isNumber } }
        return noSpeech.allSatisfy { $0 < 0.6 } && Double(words.count) <= seconds * 5 + 4
            && !Self.repeatsItself(words) && segments.allSatisfy { $0.start < seconds }
    }

    /// A phrase of one to four words said three times in a row, or of five to twelve twice: Whisper's loop, not
    /// speech.
    static func repeatsItself(_ words: [String]) -> Bool {
        for length in 1...12 {
            let times = length < 5 ? 3 : 2
            guard words.count >= length * times else { continue }
            for start in 0...(words.count - length * times) {
                let phrase = words[start..<start + length]
                let again = (1..<times).allSatisfy { words[start + length * $0..<start + length * ($0 + 1)].elementsEqual(phrase) }
                if again { return true }
            }
        }
        return false
    }
}
