import Foundation
import NotulaTestSupport
import Testing

/// The drawing of the modules in docs/ARCHITECTURE.md is the one Package.swift gives: `make module-map` makes
/// both files, and a change of the modules without it fails here.
@Suite struct ModuleMapTests {
    private func file(_ path: String) throws -> Data { try Data(contentsOf: packageRoot.appendingPathComponent(path)) }

    @Test func theGraphIsTheOnePackageSwiftGives() throws {
        let made = try output(of: [packageRoot.appendingPathComponent("scripts/module-map").path])
        #expect(made == String(decoding: try file("docs/modules.dot"), as: UTF8.self), "run: make module-map")
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/dot"), "needs Graphviz's dot (graphviz)"))
    func thePictureIsDrawnFromTheGraph() throws {
        let drawn = try output(of: ["/usr/bin/dot", "-Tsvg", packageRoot.appendingPathComponent("docs/modules.dot").path])
        #expect(drawn == String(decoding: try file("docs/modules.svg"), as: UTF8.self), "run: make module-map")
    }
}
