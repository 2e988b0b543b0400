import DBus
import FoundationEssentials
import NotulaContract

#if canImport(Glibc)
    import Glibc
#endif

/// `notula memos list|search|show|play|export|rename|delete`.
struct MemosCommand {
    static let usage = """
          memos list [--json]           every memo, newest first
          memos search QUERY [--json]   memos whose title or transcript match (words, "phrases", prefix*)
          memos show ID                 a memo's details and transcript
          memos play ID                 play a memo's audio to its end (Ctrl-C stops it; at a terminal,
                                        space pauses and resumes, the left and right arrows go 5 s back and on)
          memos export ID --format txt|srt|vtt|json [-o FILE]
          memos rename ID TITLE
          memos transcribe ID [--locale TAG] [--model NAME]
                                        decode the memo's audio again (in TAG, with the model NAME; by
                                        default its own locale and the model that locale uses) and
                                        replace its text once done
          memos delete ID               delete a memo and its audio
                                        (ID: the memo's id, or its last digits while they name one memo)
        """

    let client: MemosClient

    /// Whether `operands` (after `memos`) make a command.
    static func isValid(_ operands: [String]) -> Bool {
        let json = operands.last == "--json"
        let rest = json ? Array(operands.dropLast()) : operands
        switch (rest.first, rest.count) {
        case ("list", 1): return true
        case ("search", 2): return true
        case ("show", 2), ("play", 2), ("delete", 2), ("rename", 3): return !json
        case ("transcribe", 2), ("transcribe", 4), ("transcribe", 6): return !json && transcribeOptions(rest) != nil
        case ("export", 4), ("export", 6):
            return !json && rest[2] == "--format" && (rest.count == 4 || rest[4] == "-o")
        default: return false
        }
    }

    func run(_ operands: [String]) async throws(BusError) {
        let json = operands.last == "--json"
        let rest = json ? Array(operands.dropLast()) : operands
        switch rest[0] {
        case "list":
            let memos = try await client.all()
            try printMemos(memos, json: json, allIDs: memos.map(\.id))
        case "search": try printMemos(try await client.search(rest[1]), json: json, allIDs: try await client.ids())
        case "show":
            let path = try await client.resolve(rest[1])
            let memo = try await client.summary(path)
            let heading =
                "\(memo.title)\n\(memo.id)  \(MemoTable.created(memo.created))  \(MemoTable.length(memo.duration))  \(memo.status)  \(memo.locale)"
            print(TerminalText.safe(heading, keepingLines: true))
            print(TerminalText.safe("\(memo.audioFile)\n\n\(await client.transcript(path))", keepingLines: true))
        case "play": try await client.play(try await client.resolve(rest[1]))
        case "delete": try await client.invoke(.delete, on: try await client.resolve(rest[1]))
        case "rename": try await client.rename(try await client.resolve(rest[1]), to: rest[2])
        case "transcribe":
            let options = Self.transcribeOptions(rest) ?? [:]
            print(
                try await client.transcribe(
                    try await client.resolve(rest[1]), locale: options["--locale"] ?? "", model: options["--model"] ?? ""))
        default:
            let content = try await client.export(try await client.resolve(rest[1]), format: rest[3])
            // A file gets the export as it is; a terminal, what cannot steer it.
            if rest.count == 6 {
                try write(content, to: rest[5])
            } else {
                print(isatty(STDOUT_FILENO) == 1 ? TerminalText.safe(content, keepingLines: true) : content, terminator: "")
            }
        }
    }

    /// `--locale TAG` and `--model NAME` after `transcribe ID`, each at most once; nil for anything else.
    private static func transcribeOptions(_ rest: [String]) -> [String: String]? {
        var options: [String: String] = [:]
        var pairs = rest.dropFirst(2)[...]
        while let flag = pairs.popFirst() {
            guard ["--locale", "--model"].contains(flag), options[flag] == nil, let value = pairs.popFirst() else { return nil }
            options[flag] = value
        }
        return options
    }

    private func printMemos(_ memos: [MemosClient.Summary], json: Bool, allIDs: [String]) throws(BusError) {
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            print(TerminalText.safeJSON(String(decoding: (try? encoder.encode(memos)) ?? Data(), as: UTF8.self)))
        } else if memos.isEmpty {
            print("No memos")
        } else {
            print(MemoTable.render(memos, allIDs: allIDs))
        }
    }

    /// An exported transcript is a clinical note too: written 0600.
    private func write(_ content: String, to file: String) throws(BusError) {
        let descriptor = open(file, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw BusError.failed("Cannot write \(file): \(String(cString: strerror(errno)))") }
        defer { close(descriptor) }
        let bytes = Array(content.utf8)
        guard bytes.withUnsafeBytes({ Glibc.write(descriptor, $0.baseAddress, $0.count) }) == bytes.count else {
            throw BusError.failed("Cannot write \(file): \(String(cString: strerror(errno)))")
        }
    }
}
