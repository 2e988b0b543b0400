/// What a spoken command writes: a mark joined to the word before it, a line break, the Return key, or a quote.
enum Mark: Equatable, Sendable {
    /// `,` `.` `?` `!` `:`, with no space before; `ends` marks the end of a sentence.
    case joined(String, endsSentence: Bool)
    /// A line break: a space in a terminal, where Return would run the line.
    case newLine, newParagraph
    /// Return, asked for by name: pressed in a terminal too.
    case enter
    case openQuote, closeQuote
}

/// The spoken punctuation and commands of one language, and whether its sentences start with a capital.
struct SpokenMarks: Sendable {
    let marks: [String: Mark]

    /// The table of a BCP 47 tag's language ("en-GB" → English); nil for a language without one.
    static func of(_ locale: String) -> SpokenMarks? {
        let language = locale.split(separator: "-").first.map { $0.lowercased() } ?? ""
        return tables[language]
    }

    private static let tables: [String: SpokenMarks] = [
        "en": SpokenMarks(marks: [
            "comma": .joined(",", endsSentence: false), "period": .joined(".", endsSentence: true),
            "full stop": .joined(".", endsSentence: true), "question mark": .joined("?", endsSentence: true),
            "exclamation mark": .joined("!", endsSentence: true), "exclamation point": .joined("!", endsSentence: true),
            "colon": .joined(":", endsSentence: false), "new line": .newLine, "new paragraph": .newParagraph,
            "press enter": .enter, "open quote": .openQuote, "close quote": .closeQuote,
        ]),
        "nl": SpokenMarks(marks: [
            "komma": .joined(",", endsSentence: false), "punt": .joined(".", endsSentence: true),
            "vraagteken": .joined("?", endsSentence: true), "uitroepteken": .joined("!", endsSentence: true),
            "dubbele punt": .joined(":", endsSentence: false), "nieuwe regel": .newLine, "nieuwe alinea": .newParagraph,
            "druk op enter": .enter, "aanhalingsteken openen": .openQuote, "aanhalingsteken sluiten": .closeQuote,
        ]),
    ]
}
