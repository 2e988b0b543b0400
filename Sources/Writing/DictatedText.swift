/// Written text from dictated words: the user's vocabulary's spelling where a word sounds near one of its terms,
/// the user's replacements, then the spoken punctuation and commands of the language, sentences started with a
/// capital and no space before punctuation. A language without a table of its own gets the replacements only.
///
/// Every text Notula delivers is written here, and the commands are the only source of its control characters:
/// a word or a replacement loses its own (a recogniser's ESC would be the Escape key where it is typed), so that a
/// line break is one the user spoke, and `WrittenText.enter` one they asked to press.
public struct DictatedText: Sendable {
    private let marks: SpokenMarks?
    private let replacements: Replacements
    private let vocabulary: VocabularyCorrection
    /// The longest phrase either table holds, in words: how far each position looks ahead.
    private let longestPhrase: Int

    public init(locale: String, replacements: Replacements = .none, vocabulary: VocabularyCorrection = .none) {
        marks = SpokenMarks.of(locale)
        self.replacements = replacements
        self.vocabulary = vocabulary
        let phrases = Array(replacements.written.keys) + (marks?.marks.keys.map { $0.split(separator: " ").map(String.init) } ?? [])
        longestPhrase = phrases.map(\.count).max() ?? 1
    }

    private enum Piece {
        case word(String), written(String), mark(Mark)
    }

    /// `words` as written text.
    public func write(_ words: [String]) -> String { writeEach(words).joined() }

    /// What each of `words` adds to the written text, with its space before it: a command's or a vocabulary term's
    /// whole phrase adds at its first word, its other words add nothing. Subtitles show each run of words this way.
    /// - Parameter typed: how many of the first words were typed already, as they came: no phrase joins one of them
    ///   to a word after them, which would take back what was typed.
    public func writeEach(_ words: [String], typed: Int = 0) -> [String] {
        var text = Writer(capitalizes: marks != nil)
        var added = Array(repeating: "", count: words.count)
        let split = min(max(typed, 0), words.count)
        for (index, piece) in [0..<split, split..<words.count].flatMap({ pieces(of: words, in: $0) }) {
            switch piece {
            case .word(let word): added[index] = text.add(word, capitalizable: true)
            case .written(let written): added[index] = text.add(written, capitalizable: false)
            case .mark(let mark): added[index] = text.add(mark)
            }
        }
        return added
    }

    /// The pieces of `words[range]`, each at the index in `words` of its first word: the vocabulary's spelling
    /// first, then the longest phrase at each position replaced.
    private func pieces(of words: [String], in range: Range<Int>) -> [(index: Int, piece: Piece)] {
        let corrected = vocabulary.correct(Array(words[range]))
        return pieces(of: corrected.map(\.word)).map { (range.lowerBound + corrected[$0.index].index, $0.piece) }
    }

    /// The words with the longest phrase at each position replaced: the user's own before the language's.
    private func pieces(of words: [String]) -> [(index: Int, piece: Piece)] {
        let lowered = words.map { $0.lowercased() }
        var pieces: [(index: Int, piece: Piece)] = []
        var index = 0
        while index < words.count {
            var found: (Piece, length: Int)?
            for length in stride(from: min(longestPhrase, words.count - index), through: 1, by: -1) where found == nil {
                let phrase = Array(lowered[index..<index + length])
                if let written = replacements.written[phrase] {
                    found = (.written(written), length)
                } else if let mark = marks?.marks[phrase.joined(separator: " ")] {
                    found = (.mark(mark), length)
                }
            }
            let (piece, length) = found ?? (.word(words[index]), 1)
            pieces.append((index, piece))
            index += length
        }
        return pieces
    }
}

/// Joins words and marks with the spaces and capitals written text has, telling what each adds.
private struct Writer {
    let capitalizes: Bool
    private var sentenceStarts = true
    /// Whether the next word follows without a space: at the start, after a line break or an opening quote.
    private var joinsNext = true

    init(capitalizes: Bool) { self.capitalizes = capitalizes }

    mutating func add(_ spoken: String, capitalizable: Bool) -> String {
        let word = WrittenText.withoutControlCharacters(spoken)
        guard !word.isEmpty else { return "" }
        let space = joinsNext ? "" : " "
        let written = capitalizes && capitalizable && sentenceStarts ? word.prefix(1).uppercased() + word.dropFirst() : word
        sentenceStarts = false
        joinsNext = false
        return space + written
    }

    mutating func add(_ mark: Mark) -> String {
        switch mark {
        case .joined(let sign, let endsSentence):
            joinsNext = false
            sentenceStarts = endsSentence
            return sign
        case .newLine:
            joinsNext = true
            return "\n"
        case .newParagraph:
            joinsNext = true
            sentenceStarts = true
            return "\n\n"
        case .enter:
            joinsNext = true
            return WrittenText.enter
        case .openQuote:
            let space = joinsNext ? "" : " "
            joinsNext = true
            return space + "\""
        case .closeQuote:
            joinsNext = false
            return "\""
        }
    }
}
