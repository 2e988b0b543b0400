import Foundation
import Testing
import Writing

@testable import Dictating

/// Dictated words are written with the locale's spoken punctuation and the user's replacements as the file says now.
@Suite("Writing dictated words")
struct TextWritingTests {
    @Test func theReplacementsFileIsReadAgainOnceChanged() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("notula-writing-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("replacements.tsv")
        let writing = TextWriting(replacements: ReplacementsFile(path: file.path))
        #expect(writing.writing(in: "en-US").write(["my", "email", "period"]) == "My email.", "no file: no replacements")
        try "my email\tann@example.org\n".write(to: file, atomically: false, encoding: .utf8)
        #expect(writing.writing(in: "en-US").write(["my", "email", "period"]) == "ann@example.org.")
    }
}
