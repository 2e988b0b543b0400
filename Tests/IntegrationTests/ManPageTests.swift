import Foundation
import NotulaTestSupport
import Testing

/// The man pages `make install` renders from the programs' own `--help` (scripts/man-page): what the page
/// lists as commands and options is what the help lists, and the page renders without a warning.
@Suite("The man pages say what --help says, and render cleanly")
struct ManPageTests {
    @Test("Every command and option of --help is in the man page, and the page has no other", arguments: ["notula", "notulad"])
    func sameAsHelp(program: String) throws {
        let install = try StagedInstall(.staged)
        let page = install.path("share/man/man1/\(program).1").path
        let help = try output(of: binaryDirectory.appendingPathComponent(program).path, "--help")
        // A wide line, so that no synopsis is broken or hyphenated; plain ASCII, as a terminal shows it.
        let rendered = try output(of: "groff", "-man", "-Tascii", "-P-cbou", "-rLL=250n", page)
        let helpEntries = HelpText.entries(of: help)
        #expect(helpEntries.count >= (program == "notula" ? 20 : 4), "\(help)")
        #expect(HelpText.entries(ofPage: try String(contentsOfFile: page, encoding: .utf8)) == helpEntries)
        let shown = HelpText.words(rendered).joined(separator: " ")
        for entry in helpEntries {
            #expect(shown.contains(HelpText.words(entry).joined(separator: " ")), "\(entry) not shown by man")
        }
        #expect(HelpText.options(rendered) == HelpText.options(help))
    }

    @Test("groff and mandoc find nothing to warn about", arguments: ["notula", "notulad"])
    func rendersCleanly(program: String) throws {
        let install = try StagedInstall(.staged)
        let page = install.path("share/man/man1/\(program).1").path
        for lint in [["groff", "-man", "-ww", "-z", page], ["mandoc", "-T", "lint", "-W", "warning", page]] {
            let result = try run(lint[0], Array(lint.dropFirst()))
            #expect(
                result.status == 0 && result.output.isEmpty && result.errorOutput.isEmpty,
                "\(lint[0]): \(result.output)\(result.errorOutput)")
        }
        #expect(try output(of: "man", "-l", page).contains("EXIT STATUS"))
    }
}

/// The parts of a help text and of a man page that must agree.
enum HelpText {
    /// The synopses of the help's entries: the lines indented by two spaces, up to two spaces ("models install TAG").
    static func entries(of help: String) -> [String] {
        help.split(separator: "\n").filter { $0.hasPrefix("  ") && !$0.hasPrefix("   ") }.map { line in
            String(line.dropFirst(2).split(separator: "  ", maxSplits: 1)[0])
        }
    }

    /// The tags of the page's `.TP` paragraphs in COMMANDS or OPTIONS, without their font changes.
    static func entries(ofPage source: String) -> [String] {
        let lines = source.split(separator: "\n", omittingEmptySubsequences: false)
        let section = lines.drop { $0 != ".SH COMMANDS" && $0 != ".SH OPTIONS" }.dropFirst().prefix { !$0.hasPrefix(".SH ") }
        return zip(section, section.dropFirst()).filter { $0.0 == ".TP" }.map { _, tag in
            ["\\fB", "\\fI", "\\fR"].reduce(String(tag)) { $0.replacingOccurrences(of: $1, with: "") }
                .replacingOccurrences(of: "\\-", with: "-")
        }
    }

    /// The text's words, in order, whatever spaces and line breaks were between them.
    static func words(_ text: String) -> [Substring] { text.split(whereSeparator: \.isWhitespace) }

    /// The options the text names (`--json`, `-o`): words that start with a hyphen and a letter, once each.
    static func options(_ text: String) -> Set<Substring> {
        let pieces = text.split { !($0.isLetter || $0.isNumber || $0 == "-") }
        return Set(pieces.filter { $0.hasPrefix("-") && $0.drop { $0 == "-" }.first?.isLetter == true })
    }
}
