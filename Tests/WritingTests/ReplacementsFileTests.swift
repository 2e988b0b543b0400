import FoundationEssentials
import Glibc
import Testing

@testable import Writing

/// A FIFO that is never written would block a reader that waited for it: a hang fails the suite by its limit.
@Suite("replacements.tsv is read again when it changes, only as a regular file of bounded size", .timeLimit(.minutes(1)))
struct ReplacementsFileTests {
    private let folder = FileManager.default.temporaryDirectory.appendingPathComponent("notula-writing-\(UUID().uuidString)")
    private var path: String { folder.appendingPathComponent("replacements.tsv").path }

    init() throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    /// What `current` gives, with what it told: each bad line, and why it refused the file.
    private func read(_ file: ReplacementsFile) -> (Replacements, [SkippedLine], [String]) {
        var problems: [SkippedLine] = []
        var refusals: [String] = []
        let replacements = file.current(problems: { problems.append($0) }, refused: { refusals.append($0) })
        return (replacements, problems, refusals)
    }

    @Test func changesCountAtTheNextUseAndAMissingFileIsNone() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = ReplacementsFile(path: path)
        var told: [SkippedLine] = []

        #expect(file.current(problems: { told.append($0) }, refused: { _ in }) == .none)
        try "b p\tBP\nbad\n".write(toFile: path, atomically: true, encoding: .utf8)
        #expect(file.current(problems: { told.append($0) }, refused: { _ in }).written == [["b", "p"]: "BP"])
        #expect(told.map(\.line) == [2])
        #expect(file.current(problems: { told.append($0) }, refused: { _ in }).written == [["b", "p"]: "BP"])
        #expect(told.count == 1, "an unchanged file is not read, nor its problems told, again")

        try "b p\tblood pressure\n".write(toFile: path, atomically: true, encoding: .utf8)
        #expect(file.current(problems: { told.append($0) }, refused: { _ in }).written == [["b", "p"]: "blood pressure"])
        try FileManager.default.removeItem(atPath: path)
        #expect(file.current(problems: { told.append($0) }, refused: { _ in }) == .none)
    }

    @Test func aFIFOIsRefusedWithoutWaitingForAWriter() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(mkfifo(path, 0o600) == 0)
        let file = ReplacementsFile(path: path)

        let (replacements, _, refusals) = read(file)
        #expect(replacements == .none)
        #expect(refusals == ["not a regular file"])
        #expect(read(file).2.isEmpty, "told once, not at every utterance")
    }

    @Test func aFileOverTheCapIsRefusedWhole() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let line = Array("b p\tBP\n".utf8)
        let lines = [UInt8]((0..<(ReplacementsFile.largestFile / line.count + 1)).lazy.flatMap { _ in line })
        try Data(lines).write(to: URL(fileURLWithPath: path))
        let file = ReplacementsFile(path: path)

        let (replacements, problems, refusals) = read(file)
        #expect(replacements == .none, "not its first MiB either")
        #expect(problems.isEmpty)
        #expect(refusals == ["larger than the 1 MiB such a file may hold, or unreadable"])

        // A sparse file of 8 GiB is refused as quickly: nothing of it is read.
        try FileManager.default.removeItem(atPath: path)
        #expect(FileManager.default.createFile(atPath: path, contents: nil))
        #expect(truncate(path, 8 << 30) == 0)
        #expect(read(file).2.count == 1)

        try "b p\tBP\n".write(toFile: path, atomically: true, encoding: .utf8)
        #expect(read(file).0.written == [["b", "p"]: "BP"], "read again once it fits")
    }

    @Test func aSymbolicLinkToARegularFileIsFollowedAndToADeviceRefused() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let target = folder.appendingPathComponent("managed.tsv").path
        try "b p\tBP\n".write(toFile: target, atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: target)
        let file = ReplacementsFile(path: path)
        #expect(read(file).0.written == [["b", "p"]: "BP"])

        try FileManager.default.removeItem(atPath: path)
        try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: "/dev/zero")
        #expect(read(file).2 == ["not a regular file"])
    }

    @Test func anOverlongPhraseIsSkippedAndTheOtherLinesCount() throws {
        let spoken = Array(repeating: "word", count: Replacements.longestSpokenPhrase + 1).joined(separator: " ")
        let written = String(repeating: "x", count: Replacements.longestWrittenText + 1)
        let (replacements, problems) = Replacements.parse("\(spoken)\tlong\nb p\tBP\nshort\t\(written)\n")

        #expect(replacements.written == [["b", "p"]: "BP"])
        #expect(
            problems == [
                SkippedLine(line: 1, reason: "a spoken phrase of more than 16 words"),
                SkippedLine(line: 3, reason: "a written text of more than 1000 characters"),
            ])
    }
}
