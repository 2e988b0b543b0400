/// A user's own replacements: a spoken phrase (words as the recogniser gives them) and the text written for it.
public struct Replacements: Sendable, Equatable {
    /// Spoken phrase, lowercased and split into words → written text.
    let written: [[String]: String]

    public static let none = Replacements(written: [:])

    /// The most words a spoken phrase may have: each word dictated is looked up with as many after it as the longest
    /// phrase has, so one of thousands would make every utterance thousands of times slower.
    public static let longestSpokenPhrase = 16
    /// The most characters a written text may have: a paragraph, not a document typed into the user's window.
    public static let longestWrittenText = 1000

    /// Reads `spoken phrase<TAB>written text` lines; blank lines and lines starting with `#` are skipped.
    /// A bad line is skipped and told, the others still count.
    public static func parse(_ text: String) -> (Replacements, [SkippedLine]) {
        var written: [[String]: String] = [:]
        var problems: [SkippedLine] = []
        // "\r\n" is one Character, a newline as "\n" is.
        for (index, line) in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated() {
            if line.allSatisfy(\.isWhitespace) || line.hasPrefix("#") { continue }
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
            let spoken = fields.first.map(words) ?? []
            guard fields.count == 2 else {
                problems.append(SkippedLine(line: index + 1, reason: "not a spoken phrase, a tab and the written text"))
                continue
            }
            guard !spoken.isEmpty else {
                problems.append(SkippedLine(line: index + 1, reason: "no spoken phrase before the tab"))
                continue
            }
            guard spoken.count <= longestSpokenPhrase else {
                problems.append(SkippedLine(line: index + 1, reason: "a spoken phrase of more than \(longestSpokenPhrase) words"))
                continue
            }
            guard fields[1].count <= longestWrittenText else {
                problems.append(SkippedLine(line: index + 1, reason: "a written text of more than \(longestWrittenText) characters"))
                continue
            }
            if written[spoken] != nil { problems.append(SkippedLine(line: index + 1, reason: "\"\(fields[0])\" again: this line counts")) }
            written[spoken] = String(fields[1])
        }
        return (Replacements(written: written), problems)
    }

    private static func words(_ phrase: Substring) -> [String] {
        phrase.split(whereSeparator: \.isWhitespace).map { $0.lowercased() }
    }
}
