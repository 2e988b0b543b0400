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
        let environment = ProcessInfo.processInfo.environment
        // fish offers options only once a word starts with a hyphen.
        func offers(_ typed: String..., current: String = "") throws -> [String] {
            try shell.offers(after: typed, current: current, environment: environment)
        }
        /// The words that follow `typed` in the help's entries, options only when `options`.
        func following(_ typed: String..., options: Bool = false) -> [String] {
            let words = entries.filter { $0.count > typed.count && $0.starts(with: typed) }.map { $0[typed.count] }
            return Set(words.filter { !options || $0.hasPrefix("-") }).sorted()
        }
        #expect(try offers() == following())
        #expect(try offers("help") == following())
        for command in ["models", "memos", "permissions"] {
            #expect(try offers(command) == following(command), "\(command)")
            #expect(try offers("help", command) == following(command), "help \(command)")
        }
        #expect(try offers("status", current: "-") == following("status", options: true))
        #expect(try offers("status", "--json", current: "-") == ["--follow"])
        #expect(try offers("send", current: "-") == following("send", options: true))
        #expect(try offers("dictate", current: "-") == following("dictate", options: true))
        #expect(try offers("listen", current: "-") == following("listen", options: true))
        #expect(try offers("listen", "--format") == ["f32le", "s16le", "vad"])
        #expect(try offers("memos", "list", current: "-") == ["--json"])
        #expect(try offers("memos", "search", "lecture", current: "-") == ["--json"])
        #expect(try offers("memos", "export", "1234", current: "-") == ["--format"])
        #expect(try offers("memos", "export", "1234", "--format") == ["json", "srt", "txt", "vtt"])
        #expect(try offers("memos", "export", "1234", "--format", "txt", current: "-") == ["-o"])
        #expect(try offers("toggle") == [])
        #expect(try shell.offers(after: [], current: "me", environment: environment) == ["memos"])
    }

    @Test("Memo ids, locales and app ids come from notulad", arguments: ShellCompletion.allCases)
    func memosAndLocales(shell: ShellCompletion) async throws {
        guard shell.isInstalled else { return }
        let unreachable = "http://127.0.0.1:\(try closedLoopbackPort())/model-list.json"
        let service = try await ServiceUnderTest.start(environment: ["NOTULA_MODEL_CATALOG": unreachable, "VOSK_MODEL_PATH": ""])
        var environment = service.environment
        environment["PATH"] = binaryDirectory.path + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
        #expect(try output(of: [notula, "start"], environment: environment).isEmpty)
        let sent = try output(of: [notula, "send"], environment: environment)
        let memo = try #require(sent.split(separator: "/").last?.dropLast().description)
        // A model folder as Vosk names them: notulad lists its locale as installed.
        let model = service.home.appendingPathComponent(".cache/vosk/vosk-model-small-ko-0.22")
        for file in ["am/final.mdl", "conf/model.conf"] {
            let path = model.appendingPathComponent(file)
            try FileManager.default.createDirectory(at: path.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data("x".utf8).write(to: path)
        }

        for command in ["show", "play", "export", "rename", "transcribe", "delete"] {
            #expect(try shell.offers(after: ["memos", command], environment: environment) == [memo], "\(command)")
        }
        #expect(try shell.offers(after: ["locale"], environment: environment) == ["ko-KR"])
        #expect(try shell.offers(after: ["models", "remove"], environment: environment) == ["ko-KR"])
        #expect(try shell.offers(after: ["models", "install"], environment: environment) == [])
        #expect(
            try output(of: [notula, "permissions", "deny", "org.example.Spy"], environment: environment) == "org.example.Spy: denied\n")
        for change in ["allow", "deny", "revoke"] {
            #expect(try shell.offers(after: ["permissions", change], environment: environment) == ["org.example.Spy"], "\(change)")
        }
    }
}
