import DBus
import Foundation
import NotulaContract
import NotulaTestSupport
import Testing

@Suite("notula memos", .serialized)
struct MemosCommandTests {
    @Test("list, rename, search, show, export and delete, with ids abbreviated to their last digits")
    func manageMemos() async throws {
        let service = try await ServiceUnderTest.start()
        func notula(_ arguments: String...) throws -> CommandResult {
            var environment = service.environment
            environment["COLUMNS"] = "60"
            return try run(binaryDirectory.appendingPathComponent("notula").path, arguments, environment: environment)
        }
        #expect(try notula("memos", "list").output == "No memos\n")
        let memo = try await service.recordMemo()
        let id = String(memo.rawValue.split(separator: "/").last!)

        let list = try notula("memos", "list")
        let lines = list.output.split(separator: "\n")
        #expect(lines.count == 2 && lines[0].hasPrefix("ID    CREATED"))
        #expect(lines[1].hasPrefix(String(id.suffix(4)) + "  "))
        #expect(lines.allSatisfy { $0.count <= 60 }, "\(list.output)")

        #expect(try notula("memos", "rename", String(id.suffix(6)), "Visite à domicile").status == 0)
        let found = try notula("memos", "search", "domicile", "--json")
        let hits = try JSONSerialization.jsonObject(with: Data(found.output.utf8)) as? [[String: Any]]
        #expect(hits?.first?["id"] as? String == id)
        #expect(hits?.first?["title"] as? String == "Visite à domicile")
        #expect((hits?.first?["snippet"] as? String)?.contains("«domicile»") == true)
        #expect(try notula("memos", "search", "\"unclosed").status == 2)

        let show = try notula("memos", "show", id)
        #expect(show.output.hasPrefix("Visite à domicile\n\(id)  "))
        #expect(show.output.contains("(no transcript: "))

        let exported = try notula("memos", "export", id, "--format", "vtt")
        #expect(exported.status == 1, "a memo whose transcription failed has nothing to export")
        #expect(try notula("memos", "export", id, "--format").status == 2)
        #expect(try notula("memos", "show", "999999999999999999").status == 2)

        #expect(try notula("memos", "delete", id).status == 0)
        #expect(try notula("memos", "list", "--json").output == "[\n\n]\n")
    }

    /// A title a peer set over the bus, with a screen clear, a bell and a C1 CSI in it, reaches no terminal raw.
    @Test func aPeersControlCharactersArePrintedEscaped() async throws {
        let service = try await ServiceUnderTest.start()
        func notula(_ arguments: String...) throws -> String {
            try run(binaryDirectory.appendingPathComponent("notula").path, arguments, environment: service.environment).output
        }
        let memo = try await service.recordMemo()
        let id = String(memo.rawValue.split(separator: "/").last!)
        try await service.call(
            memo, "org.freedesktop.DBus.Properties", "Set",
            [.string(NotulaBus.memoInterface.rawValue), .string("Title"), .variant(.string("Ward\u{1B}[2J round\u{07} \u{9B}31mnotes"))])

        let outputs = [
            try notula("memos", "list"), try notula("memos", "search", "ward"), try notula("memos", "show", id),
            try notula("memos", "list", "--json"),
        ]
        for output in outputs {
            #expect(!output.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" || (0x7F...0x9F).contains($0.value) }, "\(output)")
        }
        #expect(outputs[0].contains("Ward\\x1b[2J round\\x07 \\u{9b}31mnotes"))
        #expect(outputs[1].contains("\\x1b[2J"))
        #expect(outputs[2].hasPrefix("Ward\\x1b[2J round\\x07 \\u{9b}31mnotes\n\(id)  "))
        #expect(outputs[3].lowercased().contains(#"ward\u001b[2j round\u0007 \u009b31mnotes"#))
    }
}
