import Recording

extension Transcript {
    /// Whisper's segments as a transcript. Whisper times segments, not words: each word gets a share of its segment's
    /// time by its length (`spread`), an estimate that keeps subtitles and word search in the right place.
    init(segments: [WhisperModel.Segment], model: String) {
        self.init(model: model)
        // Whisper writes a stretch of no speech as `[BLANK_AUDIO]`, `(music)` and the like: not words said.
        for segment in segments where !Self.isNonSpeech(segment.text) {
            let words = Self.spread(segment.text, from: segment.start, to: segment.end)
            append(Transcript(text: words.map(\.word).joined(separator: " "), words: words))
        }
    }

    /// The words of `text` over `start`…`end`, each a share by its length, with confidence 1: for an engine that times
    /// a stretch of speech and not its words.
    static func spread(_ text: String, from start: Double, to end: Double) -> [Word] {
        let words = text.split(separator: " ").map(String.init)
        let characters = Double(max(1, words.reduce(0) { $0 + $1.count }))
        var wordStart = start
        return words.map { word -> Word in
            let wordEnd = wordStart + (end - start) * Double(word.count) / characters
            defer { wordStart = wordEnd }
            return Word(start: wordStart, end: wordEnd, word: word, confidence: 1)
        }
    }

    /// A segment that is one bracketed note, or nothing.
    static func isNonSpeech(_ text: String) -> Bool {
        let trimmed = text.drop { $0 == " " }.reversed().drop { $0 == " " }
        guard let last = trimmed.first, let first = trimmed.last else { return true }
        return (first == "[" && last == "]") || (first == "(" && last == ")")
    }
}
