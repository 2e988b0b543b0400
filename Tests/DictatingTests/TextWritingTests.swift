import Foundation
import Testing
import Writing

@testable import Dictating

/// Dictated words are written with the locale's spoken punctuation, the user's vocabulary and replacements as their
/// files say now.
@Suite("Writing dictated words")
struct TextWritingTests {
    @Test func theReplacementsFileIsReadAgainOnceChanged() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("notula-writing-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("replacements.tsv")
        let writing = TextWriting(
            replacements: ReplacementsFile(path: file.path),
            vocabulary: VocabularyFile(path: folder.appendingPathComponent("vocabulary.txt").path))
        #expect(writing.writing(in: "en-US").write(["my", "email", "period"]) == "My email.", "no file: no replacements")
        try "my email\tann@example.org\n".write(to: file, atomically: false, encoding: .utf8)
        #expect(writing.writing(in: "en-US").write(["my", "email", "period"]) == "ann@example.org.")
    }

    @Test func aKeptVocabularyIsPrivateAndWritesTheNextText() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("notula-writing-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("notula/vocabulary.txt").path
        let writing = TextWriting(
            replacements: ReplacementsFile(path: folder.appendingPathComponent("none.tsv").path), vocabulary: VocabularyFile(path: path))
        #expect(writing.writing(in: "en-US").write(["take", "a", "pixaban"]) == "Take a pixaban")

        try writing.keep(try Vocabulary(checking: ["apixaban"]))
        #expect(writing.vocabulary.terms == ["apixaban"])
        #expect(writing.writing(in: "en-US").write(["take", "a", "pixaban"]) == "Take apixaban")
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
        let folderAttributes = try FileManager.default.attributesOfItem(atPath: folder.appendingPathComponent("notula").path)
        #expect((folderAttributes[.posixPermissions] as? Int) == 0o700)
    }
}
