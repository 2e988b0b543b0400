import Recording

/// A recogniser's tokens made words: a token that begins with a space (or SentencePiece's `▁`) begins a word, timed
/// from its token's time to the next word's; where the model times no token (Moonshine), the words share the
/// utterance's length as Whisper's share a segment's. sherpa-onnx gives no confidence a word: each has 1.
enum SherpaWords {
    static func words(text: String, tokens: [String], times: [Float]?, length: Double) -> [Word] {
        guard let times, times.count == tokens.count, !tokens.isEmpty else { return Transcript.spread(text, from: 0, to: length) }
        var starts: [(word: String, start: Double)] = []
        for (token, time) in zip(tokens, times) {
            let beginsWord = starts.isEmpty || token.hasPrefix(" ") || token.hasPrefix("▁")
            let piece = String(token.drop { $0 == " " || $0 == "▁" })
            if beginsWord {
                starts.append((piece, Double(time)))
            } else {
                starts[starts.count - 1].word += piece
            }
        }
        let ends = starts.dropFirst().map(\.start) + [max(length, starts.last?.start ?? 0)]
        return zip(starts, ends).filter { !$0.0.word.isEmpty }.map { Word(start: $0.0.start, end: $0.1, word: $0.0.word, confidence: 1) }
    }
}
