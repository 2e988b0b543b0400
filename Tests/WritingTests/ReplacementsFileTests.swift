import FoundationEssentials
import Testing

@testable import Writing

@Suite("replacements.tsv is read again when it changes")
struct ReplacementsFileTests {
    @Test func changesCountAtTheNextUseAndAMissingFileIsNone() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("notula-writing-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("replacements.tsv").path
        let file = ReplacementsFile(path: path)
        var told: [Replacements.Problem] = []

        #expect(file.current { told.append($0) } == .none)
        try "b p\tBP\nbad\n".write(toFile: path, atomically: true, encoding: .utf8)
        #expect(file.current { told.append($0) }.written == [["b", "p"]: "BP"])
        #expect(told.map(\.line) == [2])
        #expect(file.current { told.append($0) }.written == [["b", "p"]: "BP"])
        #expect(told.count == 1, "an unchanged file is not read, nor its problems told, again")

        try "b p\tblood pressure\n".write(toFile: path, atomically: true, encoding: .utf8)
        #expect(file.current { told.append($0) }.written == [["b", "p"]: "blood pressure"])
        try FileManager.default.removeItem(atPath: path)
        #expect(file.current { told.append($0) } == .none)
    }
}
