/// Dictated words that sound near a term of the user's vocabulary take the term's spelling: "meta pro lol" →
/// "metoprolol", "nuvenhausen" → "Nieuwenhuizen". Only where it is confident — the same first sound, the sounds
/// (`SoundKey`) at most one or two apart and the letters at most two fifths — and never into a word outside
/// the vocabulary; a term of fewer than five letters only takes its own spelling ("ohm" → "Ohm"), as short words
/// sound like too many others.
public struct VocabularyCorrection: Sendable {
    private struct Term: Sendable {
        let spelling: String
        let letters: [UInt8]
        let key: [UInt8]
    }

    /// The terms by their first sound: a run is compared only with those that start as it does.
    private let termsByFirstSound: [UInt8: [Term]]
    /// The terms of one letters, compared for an exact match whatever their length.
    private let termsByLetters: [[UInt8]: Term]

    /// The most words a run may have to match one term: "a pixa ban", "new when house n".
    static let longestRun = 4
    /// Below this, a term is matched only letter for letter.
    static let shortestCorrected = 5

    public static let none = VocabularyCorrection(.none)

    public init(_ vocabulary: Vocabulary) {
        let terms = vocabulary.terms.compactMap { spelling in
            SoundKey.letters(of: Substring(spelling.filter { $0 != " " })).map {
                Term(spelling: spelling, letters: $0, key: SoundKey.of($0))
            }
        }
        termsByLetters = Dictionary(terms.map { ($0.letters, $0) }, uniquingKeysWith: { first, _ in first })
        termsByFirstSound = Dictionary(
            grouping: terms.filter { $0.letters.count >= Self.shortestCorrected && !$0.key.isEmpty }, by: { $0.key[0] })
    }

    /// A word as a recogniser writes it: punctuation before and after its letters ("(Metoprolol)," → "(", ",").
    private struct Token {
        let before: Substring
        let core: Substring
        let after: Substring
        /// The core's letters, nil when it holds a number or a mark inside.
        let letters: [UInt8]?

        init(_ word: String) {
            let start = word.firstIndex(where: \.isLetter) ?? word.endIndex
            let end = word.lastIndex(where: \.isLetter).map(word.index(after:)) ?? start
            before = word[..<start]
            core = word[start..<max(start, end)]
            after = word[max(start, end)...]
            letters = core.isEmpty ? nil : SoundKey.letters(of: core)
        }
    }

    private struct Match {
        let start: Int
        let length: Int
        let term: Term
        /// Letters and sounds apart: lower is surer; 0 is the term itself.
        let distance: Int
    }

    /// `words` with each run that sounds near a term replaced by it: the index of each written word's first word
    /// in `words`, and the word. Runs do not cross punctuation between words.
    public func correct(_ words: [String]) -> [(index: Int, word: String)] {
        guard !termsByLetters.isEmpty else { return words.enumerated().map { ($0.offset, $0.element) } }
        let tokens = words.map(Token.init)
        var chosen: [Int: Match] = [:]
        var covered = Array(repeating: false, count: words.count)
        // The surest first, then the shortest: "the apixaban" keeps its "the" for "apixaban" alone.
        for match in matches(in: tokens).sorted(by: { ($0.distance, $0.length) < ($1.distance, $1.length) }) {
            let span = match.start..<match.start + match.length
            guard !covered[span].contains(true) else { continue }
            covered.replaceSubrange(span, with: repeatElement(true, count: match.length))
            chosen[match.start] = match
        }
        var written: [(index: Int, word: String)] = []
        var index = 0
        while index < words.count {
            guard let match = chosen[index] else {
                written.append((index, words[index]))
                index += 1
                continue
            }
            let last = tokens[index + match.length - 1]
            written.append((index, String(tokens[index].before) + spelled(match.term.spelling, like: tokens[index].core) + last.after))
            index += match.length
        }
        return written
    }

    /// Every run of words that matches a term, with the term it matches best.
    private func matches(in tokens: [Token]) -> [Match] {
        var found: [Match] = []
        for start in tokens.indices {
            var letters: [UInt8] = []
            for end in start..<min(tokens.count, start + Self.longestRun) {
                guard let more = tokens[end].letters, end == start || tokens[end].before.isEmpty && tokens[end - 1].after.isEmpty else {
                    break
                }
                letters += more
                if let match = bestTerm(for: letters).map({
                    Match(start: start, length: end - start + 1, term: $0.term, distance: $0.distance)
                }) {
                    found.append(match)
                }
            }
        }
        return found
    }

    private func bestTerm(for letters: [UInt8]) -> (term: Term, distance: Int)? {
        if let exact = termsByLetters[letters] { return (exact, 0) }
        let key = SoundKey.of(letters)
        guard letters.count >= Self.shortestCorrected - 1, let first = key.first else { return nil }
        var best: (term: Term, distance: Int)?
        for term in termsByFirstSound[first] ?? [] where abs(term.letters.count - letters.count) * 3 <= term.letters.count {
            let sounds = EditDistance.between(key, term.key)
            guard sounds <= (term.key.count >= 6 ? 2 : 1) else { continue }
            let spelling = EditDistance.between(letters, term.letters)
            guard spelling * 5 <= term.letters.count * 2, spelling + sounds < best?.distance ?? .max else { continue }
            best = (term, spelling + sounds)
        }
        return best
    }

    /// The term as the user spelled it, with a capital where the words replaced started a sentence with one.
    private func spelled(_ term: String, like replaced: Substring) -> String {
        guard replaced.first?.isUppercase == true, term.first?.isLowercase == true else { return term }
        return term.prefix(1).uppercased() + term.dropFirst()
    }
}

/// The fewest elements inserted, removed or changed to make one sequence the other (Levenshtein's distance): letters of
/// words here, words of texts where the benchmark counts words wrong.
public enum EditDistance {
    public static func between<Element: Equatable>(_ one: [Element], _ other: [Element]) -> Int {
        guard !one.isEmpty else { return other.count }
        var previous = Array(0...other.count)
        var current = previous
        for (row, letter) in one.enumerated() {
            current[0] = row + 1
            for (column, otherLetter) in other.enumerated() {
                current[column + 1] = min(previous[column + 1] + 1, current[column] + 1, previous[column] + (letter == otherLetter ? 0 : 1))
            }
            swap(&previous, &current)
        }
        return previous[other.count]
    }
}
