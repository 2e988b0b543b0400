import Foundation
import NotulaTestSupport
import Testing

/// A suite's tag places it in a pass of `make test` (Tests/TestPasses), and `scripts/test-pass` runs each pass from
/// what the test binary lists: here, the suites the sources tag are the ones the script finds, and a suite that
/// plainly needs a pass of its own (a desktop, the Korean model, the package installed) says so.
@Suite struct PassesTests {
    /// What shows a suite's kind in its source, and the passes it may then be in.
    private static let kinds: [(marks: [String], passes: Set<String>)] = [
        (["GnomeShellHost", "Gnome48Host", "PlasmaHost"], ["desktop"]),
        (["TerminalsInSway", "TerminalsUnderXvfb", ".terminalsInSway", ".terminalsUnderXvfb"], ["desktop", "lightDesktop"]),
        (["NOTULA_TEST_MODEL", "modelPlace(", "Engine.model(", "Engine.modelPath", "koreanModel("],
         ["speech", "modelLoading", "desktop"]),
        (["dpkg"], ["package"]),
    ]
    private static let passes = ["capture", "timing", "reliability", "speech", "modelLoading", "lightDesktop", "desktop", "package"]

    /// A top-level type of a test target's source: its ID as the binary names it, the pass tags of its `@Suite`,
    /// and its text up to the next top-level declaration.
    private struct Declared {
        let id: String
        let tags: Set<String>
        let text: String
        var isSuite: Bool { text.contains("@Suite") || text.contains("@Test") }
    }

    /// Read once for the suite's tests.
    private static let declared = Result { try declaredSuites() }

    private static func declaredSuites() throws -> [Declared] {
        let tests = packageRoot.appendingPathComponent("Tests")
        var found: [Declared] = []
        for target in try FileManager.default.contentsOfDirectory(atPath: tests.path).sorted() {
            let folder = tests.appendingPathComponent(target)
            guard let files = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else { continue }
            for file in files.sorted() where file.hasSuffix(".swift") {
                let source = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
                found += declarations(in: source).map { name, text in
                    Declared(id: "\(target).\(name)", tags: tags(in: text), text: text)
                }
            }
        }
        return found.filter(\.isSuite)
    }

    /// The top-level types of `source` with their text: each begins at a column-0 declaration, with the doc comment
    /// and attributes before it, and ends where the next begins.
    private static func declarations(in source: String) -> [(name: String, text: String)] {
        let opening = /^(?:\/\/\/|@|(?:(?:public|private|fileprivate|final) )*(?:struct|class|enum|actor|extension|func|let|var) )/
        let declaration = /^(?:@\w+(?:\(.*\))? +)*(?:(?:public|private|fileprivate|final) )*(struct|class|enum|actor|extension|func|let|var) (\w+)/
        var chunks: [(keyword: Substring, name: Substring, lines: [Substring])] = []
        var header: [Substring] = []
        for line in source.split(separator: "\n", omittingEmptySubsequences: false) {
            if let found = line.prefixMatch(of: declaration) {
                chunks.append((found.output.1, found.output.2, header + [line]))
                header = []
            } else if line.prefixMatch(of: opening) != nil || !header.isEmpty {
                header.append(line)  // a doc comment or an attribute, perhaps over several lines
            } else if !chunks.isEmpty {
                chunks[chunks.count - 1].lines.append(line)
            }
        }
        return chunks.filter { ["struct", "class", "enum", "actor"].contains($0.keyword) }
            .map { (String($0.name), $0.lines.drop { $0.hasPrefix("///") }.joined(separator: "\n")) }
    }

    /// The pass tags of a declaration's `@Suite(…, .tags(.a, .b))`.
    private static func tags(in text: String) -> Set<String> {
        let attributes = text.prefix { $0 != "{" }
        guard let list = attributes.firstMatch(of: /\.tags\(([^)]*)\)/) else { return [] }
        return Set(list.output.1.split(separator: ",").map { $0.trimmingCharacters(in: CharacterSet(charactersIn: " .")) })
    }

    /// The suites `scripts/test-pass` finds for `pass` in this test binary.
    private static func listed(_ pass: String) throws -> Set<String> {
        let binary = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        let script = packageRoot.appendingPathComponent("scripts/test-pass").path
        let listing = try output(of: [script, (binary as NSString).deletingLastPathComponent, "--list", pass])
        return Set(listing.split(separator: "\n").map(String.init))
    }

    @Test(arguments: PassesTests.passes)
    func theScriptFindsTheSuitesTheSourcesTag(pass: String) throws {
        let tagged = Set(try Self.declared.get().filter { $0.tags.contains(pass) }.map(\.id))
        #expect(!tagged.isEmpty)
        let listed = try Self.listed(pass)
        #expect(listed == tagged, "listed, not tagged: \(listed.subtracting(tagged).sorted()); the reverse: \(tagged.subtracting(listed).sorted())")
    }

    @Test func aSuiteThatNeedsAPassOfItsOwnIsTaggedForIt() throws {
        // This suite names the marks, so it is not read for them.
        for suite in try Self.declared.get() where suite.id != "IntegrationTests.PassesTests" {
            for kind in Self.kinds {
                guard let mark = kind.marks.first(where: { suite.text.contains($0) }) else { continue }
                #expect(
                    !suite.tags.isDisjoint(with: kind.passes),
                    "\(suite.id) uses \(mark): tag it for one of \(kind.passes.sorted()) (Tests/TestPasses)")
            }
        }
    }

    @Test func theMainPassHoldsTheRestAndNothingTagged() throws {
        let main = try Self.listed("main")
        let tagged = try Self.passes.reduce(into: Set<String>()) { $0.formUnion(try Self.listed($1)) }
        #expect(main.isDisjoint(with: tagged))
        #expect(main.contains("IntegrationTests.PassesTests"))
    }
}
