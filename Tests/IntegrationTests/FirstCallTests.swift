import DBus
import Foundation
import Models
import NotulaContract
import NotulaTestSupport
import Speech
import TestPasses
import Testing

/// A catalog that takes seconds to arrive, as Vosk's does on a slow line, and an older one in the cache: what
/// `notula locale nl-NL` meets when it activates the service on a day the cache is stale.
private final class SlowCatalog {
    let server: TestHTTPServer
    private let folder: URL
    private let gate: String

    /// Serves a catalog of Korean and Dutch models in about four seconds from `release()`; the home's cache holds a
    /// day-old catalog of the Korean model alone.
    init(cachingInto home: URL) throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("notula-slow-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let catalog = folder.appendingPathComponent("model-list.json")
        // Until released, the catalog does not start: under the reliability pass's load the service's start took
        // longer than the four seconds it arrives in, and the cached catalog was already replaced.
        gate = folder.appendingPathComponent("held").path
        _ = FileManager.default.createFile(atPath: gate, contents: nil)
        server = try TestHTTPServer(routes: ["/model-list.json": .file(catalog.path, rate: 4096, heldWhile: gate)])
        // Padded past four of the server's 4 KB chunks, sent a second apart: the last one ends the catalog.
        try (Self.json(["ko", "nl"]) + String(repeating: " ", count: 4 * 4096)).write(to: catalog, atomically: true, encoding: .utf8)

        let cache = CatalogSource(address: address, cacheFolder: home.appendingPathComponent("cache/notula").path).cacheFile
        try FileManager.default.createDirectory(atPath: (cache as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try Self.json(["ko"]).write(toFile: cache, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -2 * 86_400)], ofItemAtPath: cache)
    }

    deinit { try? FileManager.default.removeItem(at: folder) }

    /// Lets the catalog come, in about four seconds.
    func release() { try? FileManager.default.removeItem(atPath: gate) }

    var address: String { server.url(for: "/model-list.json") }

    /// A catalog of a small model for each of Vosk's language codes `languages`, whose archives are not there.
    private static func json(_ languages: [String]) throws -> String {
        try voskCatalog(languages.map { CatalogModel(lang: $0, url: "http://127.0.0.1:9/vosk-model-small-\($0)-0.22.zip") })
    }
}

@Suite("The first call after a start waits for the catalog on its way", .timeLimit(.minutes(1)), .tags(.reliability))
struct FirstCallTests {
    @Test("A locale only the catalog being fetched knows is picked once it arrives; meanwhile the cached catalog is listed")
    func pickWaitsForTheCatalogFetch() async throws {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("notula-test-\(UUID().uuidString)")
        let catalog = try SlowCatalog(cachingInto: home)
        let service = try await ServiceUnderTest.start(environment: ["NOTULA_MODEL_CATALOG": catalog.address], home: home)

        #expect(try await service.modelsProperty(.supportedLocales) == .array(element: "s", [.string("ko-KR")]))
        catalog.release()
        // Before, refused at once: "No speech model serves 'nl-NL'. Supported: ko-KR".
        try await setLocale(service, "nl-NL")

        #expect(try await service.property(.locale) == .string("nl-NL"))
        #expect(try await service.modelsProperty(.supportedLocales) == .array(element: "s", [.string("ko-KR"), .string("nl-NL")]))
    }

    @Test("Install of a model only the catalog being fetched has starts its download once the catalog arrives")
    func installWaitsForTheCatalogFetch() async throws {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("notula-test-\(UUID().uuidString)")
        let catalog = try SlowCatalog(cachingInto: home)
        let service = try await ServiceUnderTest.start(environment: ["NOTULA_MODEL_CATALOG": catalog.address], home: home)
        let signals = try await service.signals(of: NotulaBus.modelsPath, interface: NotulaBus.modelsInterface)
        catalog.release()

        try await service.models(.install, [.string("nl-NL")])

        let events = await untilDownloadEnds(signals, within: .seconds(20))
        #expect(events.first == "DownloadStarted nl-NL vosk-model-small-nl-0.22 1000")
    }
}
