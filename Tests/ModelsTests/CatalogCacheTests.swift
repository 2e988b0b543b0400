import Foundation
import Models
import NotulaTestSupport
import Testing

/// The catalog kept for offline starts: private from its first byte, and never written through a link.
@Suite struct CatalogCacheTests {
    @Test func theCacheIsWrittenAnew0600AndNotThroughALinkLeftInItsPlace() async throws {
        let folder = TemporaryFolder()
        let catalog = folder.file("served.json")
        try Data("[]".utf8).write(to: URL(fileURLWithPath: catalog))
        let source = CatalogSource(address: catalog, cacheFolder: folder.file("cache"))
        try FileManager.default.createDirectory(atPath: folder.file("cache"), withIntermediateDirectories: true)
        // A world-readable cache of an older version, and a link where the new one is staged.
        try Data("old".utf8).write(to: URL(fileURLWithPath: source.cacheFile))
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: source.cacheFile)
        let victim = folder.file("victim")
        try Data("keep".utf8).write(to: URL(fileURLWithPath: victim))
        try FileManager.default.createSymbolicLink(atPath: source.cacheFile + ".new", withDestinationPath: victim)

        _ = try await source.fetch()

        #expect(try String(contentsOfFile: source.cacheFile, encoding: .utf8) == "[]")
        #expect(try FileManager.default.attributesOfItem(atPath: source.cacheFile)[.posixPermissions] as? Int == 0o600)
        #expect(try String(contentsOfFile: victim, encoding: .utf8) == "keep")
        #expect(!FileManager.default.fileExists(atPath: source.cacheFile + ".new"))
    }
}
