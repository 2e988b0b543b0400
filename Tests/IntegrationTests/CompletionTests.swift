import Foundation
import NotulaTestSupport
import Testing

private let notula = binaryDirectory.appendingPathComponent("notula").path

/// bash, zsh and fish complete `notula` with what `notula --help` lists, and with the memos and locales notulad has.
@Suite("Shell completions offer notula's commands, options, memos and locales")
struct CompletionTests {
    /// The entries of `notula --help` as words: "start | pause | resume" is three entries.
    private static func helpEntries() throws -> [[String]] {
        let synopses = HelpText.entries(of: try output(of: notula, "--help"))
        let alternatives: [String] = synopses.flatMap { $0.components(separatedBy: " | ") }
        return alternatives.map { $0.split(separator: " ").map(String.init) }
    }

    @Test("Commands, subcommands and options are those of notula --help", arguments: ShellCompletion.allCases)
    func helpWords(shell: ShellCompletion) throws {
        guard shell.isInstalled else { return }
        let entries = try Self.helpEntries()
        /// The words that follow `typed` in the help's entries, options only when `options`.
        func following(_ typed: String..., options: Bool = false) -> [String] {
            let words = entries.filter { $0.count > typed.count && $0.starts(with: typed) }.map { $0[typed.count] }
            return Set(words.filter { !options || $0.hasPrefix("-") }).sorted()
        }
        // fish offers options only once a word starts with a hyphen.
        var expected: [(typed: [String], current: String, offers: [String])] = [
            ([], "", following()), (["help"], "", following()),
            (["status"], "-", following("status", options: true)), (["status", "--json"], "-", ["--follow"]),
            (["send"], "-", following("send", options: true)), (["dictate"], "-", following("dictate", options: true)),
            (["listen"], "-", following("listen", options: true)), (["listen", "--format"], "", ["f32le", "s16le", "vad"]),
            (["memos", "list"], "-", ["--json"]), (["memos", "search", "lecture"], "-", ["--json"]),
            (["memos", "export", "1234"], "-", ["--format"]),
            (["memos", "export", "1234", "--format"], "", ["json", "srt", "txt", "vtt"]),
            (["memos", "export", "1234", "--format", "txt"], "-", ["-o"]), (["toggle"], "", []), ([], "me", ["memos"]),
        ]
        for command in ["models", "memos", "permissions", "vocabulary"] {
            expected += [([command], "", following(command)), (["help", command], "", following(command))]
        }
        try expectOffers(expected, of: shell, environment: ProcessInfo.processInfo.environment)
    }

    @Test("Memo ids, locales and app ids come from notulad", arguments: ShellCompletion.allCases)
    func memosAndLocales(shell: ShellCompletion) async throws {
        guard shell.isInstalled else { return }
        let unreachable = "http://127.0.0.1:\(try closedLoopbackPort())/model-list.json"
        let service = try await ServiceUnderTest.start(environment: ["NOTULA_MODEL_CATALOG": unreachable, "VOSK_MODEL_PATH": ""])
        var environment = service.environment
        environment["PATH"] = binaryDirectory.path + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
        let started = try output(of: [notula, "start"], environment: environment)
        #expect(started.isEmpty)
        let sent = try output(of: [notula, "send"], environment: environment)
        let memo = try #require(sent.split(separator: "/").last?.dropLast().description)
        // A model folder as Vosk names them: notulad lists its locale as installed.
        let model = service.home.appendingPathComponent(".cache/vosk/vosk-model-small-ko-0.22")
        for file in ["am/final.mdl", "conf/model.conf"] {
            let path = model.appendingPathComponent(file)
            try FileManager.default.createDirectory(at: path.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data("x".utf8).write(to: path)
        }

        // An app id the permissions list names.
        let denied = try output(of: [notula, "permissions", "deny", "org.example.Spy"], environment: environment)
        #expect(denied == "org.example.Spy: denied\n")
        let memoCommands = ["show", "play", "export", "rename", "transcribe", "delete"]
        try expectOffers(
            memoCommands.map { (["memos", $0], "", [memo]) }
                + [(["locale"], "", ["ko-KR"]), (["models", "remove"], "", ["ko-KR"]), (["models", "install"], "", [])]
                + ["allow", "deny", "revoke"].map { (["permissions", $0], "", ["org.example.Spy"]) },
            of: shell, environment: environment)
    }
}

/// What `shell` offers for each word `current` typed after `notula` and `typed`, compared with what is expected once
/// it is in hand: a failure shows both lists.
private func expectOffers(
    _ cases: [(typed: [String], current: String, offers: [String])], of shell: ShellCompletion, environment: [String: String],
    sourceLocation: SourceLocation = #_sourceLocation
) throws {
    for (typed, current, expected) in cases {
        let offered = try shell.offers(after: typed, current: current, environment: environment)
        #expect(offered == expected, "notula \((typed + [current]).joined(separator: " "))<Tab>", sourceLocation: sourceLocation)
    }
}
