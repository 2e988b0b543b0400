/// `notula help COMMAND` and `notula COMMAND --help`: the lines of the usage that describe one
/// command, read from the usage itself so that the two never disagree.
struct CommandHelp {
    /// A command's line of the usage ("  models install TAG  download …") and the lines that continue it.
    private struct Entry {
        var lines: [Substring]

        /// The ways the line spells the command: "start | pause | resume" is three.
        var synopses: [[Substring]] {
            let synopsis = lines[0].dropFirst(2).split(separator: "  ", maxSplits: 1).first ?? ""
            return synopsis.split(separator: " | ").map { $0.split(separator: " ") }
        }

        func describes(_ words: [String]) -> Bool {
            synopses.contains { $0.starts(with: words) { $0 == $1 } }
        }

        /// The lines as `notula COMMAND` would show them: the command spelled out, its continuations aligned.
        var spelledOut: [String] {
            ["  notula " + lines[0].dropFirst(2)] + lines.dropFirst().map { "       " + $0 }
        }
    }

    private let entries: [Entry]

    /// - Parameter usage: `notula --help`'s text, whose command lines are indented by two spaces and their
    ///   continuations by more, after a line `Commands:` and up to the next empty line.
    init(usage: String) {
        var entries: [Entry] = []
        let lines = usage.split(separator: "\n", omittingEmptySubsequences: false)
        for line in lines.drop(while: { $0 != "Commands:" }).dropFirst().prefix(while: { !$0.isEmpty }) {
            if line.hasPrefix("   "), !entries.isEmpty {
                entries[entries.count - 1].lines.append(line)
            } else {
                entries.append(Entry(lines: [line]))
            }
        }
        self.entries = entries
    }

    /// The usage of the command `words` name ("models", "models install", "pause"), or of the longest start of
    /// them that names one (`memos show 1234` is `memos show`); nil when the first word is no command.
    func usage(of words: [String]) -> String? {
        var words = words
        while !words.isEmpty {
            let matching = entries.filter { $0.describes(words) }
            if !matching.isEmpty {
                return (["Usage:"] + matching.flatMap(\.spelledOut)).joined(separator: "\n")
            }
            words.removeLast()
        }
        return nil
    }
}
