/// What Whisper is prompted with before an utterance or a file: the user's terms, which steer its spelling towards
/// theirs, then the text said before it, which keeps its style. Whisper keeps at most 224 tokens of a prompt, the
/// last; a rare word is a token for every two to four characters, so each part is bounded well below that.
enum WhisperPrompt {
    /// About a hundred tokens of rare words: the first terms of a long vocabulary, in the user's order.
    static let longestTerms = 300
    /// About seventy tokens of ordinary text: the end of what came before.
    static let longestPrevious = 300

    static func text(terms: [String], previous: String) -> String {
        var listed = ""
        for term in terms {
            let added = (listed.isEmpty ? "" : ", ") + term
            guard listed.count + added.count <= longestTerms else { break }
            listed += added
        }
        let glossary = listed.isEmpty ? "" : "Glossary: \(listed)."
        return [glossary, lastWords(of: previous)].filter { !$0.isEmpty }.joined(separator: " ")
    }

    /// The end of `text`, at most `longestPrevious` characters, starting at a word.
    private static func lastWords(of text: String) -> String {
        guard text.count > longestPrevious else { return text }
        let end = text.suffix(longestPrevious)
        return String(end.drop { !$0.isWhitespace }.drop(while: \.isWhitespace))
    }
}
