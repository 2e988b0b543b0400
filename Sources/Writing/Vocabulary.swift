/// The user's own words and phrases — names, drugs, places, jargon — in the spelling they want written: Whisper
/// is prompted with them, and written text takes their spelling where a word sounds near one (`VocabularyCorrection`).
public struct Vocabulary: Sendable, Equatable {
    /// The terms, each once (compared without case), in the user's order: the first are those a bounded prompt keeps.
    public let terms: [String]

    public static let none = Vocabulary(terms: [])

    /// Every term is compared with every run of dictated words: the cost grows with the count.
    public static let mostTerms = 500
    /// A name or a phrase of a few words, not a sentence.
    public static let longestTerm = 64

    /// Why a term is refused, for a person.
    public struct Refusal: Error, Sendable, Equatable {
        public let message: String
    }

    /// `terms`, each checked, the same term given twice kept once.
    /// - Throws: More terms than `mostTerms`, else the first term refused.
    public init(checking terms: [String]) throws(Refusal) {
        guard terms.count <= Self.mostTerms else {
            throw Refusal(message: "A vocabulary holds at most \(Self.mostTerms) terms, not \(terms.count)")
        }
        var kept: [String] = []
        var seen: Set<String> = []
        for term in terms {
            let trimmed = try Self.check(term)
            if seen.insert(trimmed.lowercased()).inserted { kept.append(trimmed) }
        }
        self.terms = kept
    }

    private init(terms: [String]) { self.terms = terms }

    /// The file's form: a term a line.
    public var fileText: String { terms.map { $0 + "\n" }.joined() }

    /// Reads a term a line; blank lines and lines starting with `#` are skipped, and so is a bad line, told, past
    /// `mostTerms`, the rest.
    public static func parse(_ text: String) -> (Vocabulary, [SkippedLine]) {
        var terms: [String] = []
        var seen: Set<String> = []
        var skipped: [SkippedLine] = []
        for (index, line) in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated() {
            if line.allSatisfy(\.isWhitespace) || line.hasPrefix("#") { continue }
            do throws(Refusal) {
                let term = try check(String(line))
                guard !seen.contains(term.lowercased()) else { continue }
                guard terms.count < mostTerms else {
                    skipped.append(SkippedLine(line: index + 1, reason: "past the \(mostTerms) terms a vocabulary holds"))
                    continue
                }
                terms.append(term)
                seen.insert(term.lowercased())
            } catch {
                skipped.append(SkippedLine(line: index + 1, reason: error.message))
            }
        }
        return (Vocabulary(terms: terms), skipped)
    }

    /// `term` without the spaces around it.
    /// - Throws: An empty term, one longer than `longestTerm`, one holding a control character or no letter.
    private static func check(_ term: String) throws(Refusal) -> String {
        let trimmed = String(term.drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
        guard !trimmed.isEmpty else { throw Refusal(message: "A vocabulary term is empty") }
        // Characters, and bytes: 64 letters each under a thousand combining marks are not a term.
        guard trimmed.count <= longestTerm, trimmed.utf8.count <= longestTerm * 8 else {
            throw Refusal(message: "A vocabulary term may have at most \(longestTerm) characters, not \(trimmed.count)")
        }
        guard
            !trimmed.unicodeScalars.contains(where: { $0.properties.generalCategory == .control || $0.properties.isWhitespace && $0 != " " }
            )
        else {
            throw Refusal(message: "A vocabulary term may not hold a control character, a tab or a line break")
        }
        guard trimmed.contains(where: \.isLetter) else {
            throw Refusal(message: "\"\(trimmed)\" holds no letter: a vocabulary term is a word or a phrase")
        }
        return trimmed
    }
}

/// `$XDG_CONFIG_HOME/notula/vocabulary.txt`: a term a line.
public typealias VocabularyFile = WatchedFile<Vocabulary>

extension WatchedFile where Content == Vocabulary {
    public convenience init(path: String) { self.init(path: path, empty: .none, parse: Vocabulary.parse) }
}
