import Foundation
import NotulaTestSupport
import Testing

/// notulad links no Foundation, only FoundationEssentials: Foundation brings ICU's tables, which tripled the binary
/// and added a fifth to its memory at start, for localisation notulad never uses. Every module notulad links (read
/// from docs/modules.dot, which `ModuleMapTests` holds to Package.swift) imports `FoundationEssentials` or nothing,
/// and the built notulad loads no ICU.
@Suite struct FoundationEssentialsTests {
    /// The modules that import Foundation's localised parts, or ICU.
    static let refused = ["Foundation", "FoundationInternationalization", "FoundationNetworking", "FoundationXML", "_FoundationICU"]

    @Test func noModuleOfNotuladImportsFoundation() throws {
        let modules = try Self.modules(linkedBy: "notulad")
        #expect(modules.isSuperset(of: ["Recording", "DBus", "Delivering", "NotulaService"]), "the graph was not read: \(modules)")
        var importing: [String] = []
        for module in modules.sorted() {
            let folder = packageRoot.appendingPathComponent("Sources/\(module)")
            let files = FileManager.default.enumerator(atPath: folder.path)?.compactMap { $0 as? String } ?? []
            for file in files.sorted() where file.hasSuffix(".swift") {
                let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
                for line in text.split(separator: "\n") where Self.importsRefused(line) { importing.append("Sources/\(module)/\(file): \(line)") }
            }
        }
        #expect(importing.isEmpty, "import FoundationEssentials instead:\n\(importing.joined(separator: "\n"))")
    }

    /// Also through the libraries it links: libarchive brought ICU by libxml2 until it was loaded only to unpack.
    @Test func theBuiltNotuladLoadsNoFoundationLibraryNorICU() throws {
        let loaded = try output(of: ["/usr/bin/ldd", binaryDirectory.appendingPathComponent("notulad").path]).split(separator: "\n")
        #expect(loaded.contains { $0.contains("libdbus-1.so") }, "no libraries read: \(loaded)")
        let refused = loaded.filter { line in Self.refused.contains { line.contains("lib\($0).so") } || line.contains("libicu") }
        #expect(refused.isEmpty, "\(refused)")
    }

    @Test func theCheckSeesEveryFormOfImport() {
        for line in ["import Foundation", "@_exported import Foundation", "import struct Foundation.Date", "  import FoundationNetworking"] {
            #expect(Self.importsRefused(Substring(line)), "\(line)")
        }
        for line in ["import FoundationEssentials", "// import Foundation", "import FoundationEssentialsExtra"] {
            #expect(!Self.importsRefused(Substring(line)), "\(line)")
        }
    }

    /// Whether `line` imports one of `refused`, in any form (`@_exported`, `import struct Foundation.Date`).
    static func importsRefused(_ line: Substring) -> Bool {
        var words = line.split(whereSeparator: \.isWhitespace)
        if words.first?.hasPrefix("@") == true { words.removeFirst() }
        guard words.first == "import", let named = words.last else { return false }
        let module = named.split(separator: ".").first.map(String.init) ?? ""
        return refused.contains(module)
    }

    /// `target` and every module it links, by the arrows of docs/modules.dot (`"A" -> "B";`).
    static func modules(linkedBy target: String) throws -> Set<String> {
        let graph = try String(contentsOf: packageRoot.appendingPathComponent("docs/modules.dot"), encoding: .utf8)
        var arrows: [String: [String]] = [:]
        for line in graph.split(separator: "\n") where line.contains("->") {
            let names = line.split(separator: "\"", omittingEmptySubsequences: false).enumerated().filter { $0.offset % 2 == 1 }.map { String($0.element) }
            if names.count == 2 { arrows[names[0], default: []].append(names[1]) }
        }
        var found: Set<String> = [target]
        var waiting = [target]
        while let module = waiting.popLast() {
            for next in arrows[module] ?? [] where found.insert(next).inserted { waiting.append(next) }
        }
        return found
    }
}
