import Recording

extension Transcript {
    /// Whisper's segments as a transcript. Whisper times segments, not words: each word gets a share of its segment's
    /// time by its length, an estimate that keeps subtitles and word search in the right place, and confidence 1.
    init(segments: [WhisperModel.Segment], model: String) {
        self.init(model: model)
        // Whisper writes a stretch of no speech as `[BLANK_AUDIO]`, `(music)` and the like: not words said.
        for segment in segments where !Self.isNonSpeech(segment.text) {
            let words = segment.text.split(separator: " ").map(String.init)
            let characters = Double(max(1, words.reduce(0) { $0 + $1.count }))
            var start = segment.start
            let timed = words.map { word -> Word in
                let end = start + (segment.end - segment.start) * Double(word.count) / characters
                defer { start = end }
                return Word(start: start, end: end, word: word, confidence: 1)
            }
            append(Transcript(text: words.joined(separator: " "), words: timed))
        }
    }

    /// A segment that is one bracketed note, or nothing.
    static func isNonSpeech(_ text: String) -> Bool {
        let trimmed = text.drop { $0 == " " }.reversed().drop { $0 == " " }
        guard let last = trimmed.first, let first = trimmed.last else { return true }
        return (first == "[" && last == "]") || (first == "(" && last == ")")
    }
}
