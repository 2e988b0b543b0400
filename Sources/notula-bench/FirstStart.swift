import DBus
import Foundation
import NotulaTestSupport

/// What an idle notulad holds after its first start: with an empty cache it fetches the catalog at once (and then
/// once a day), which with libcurl in the service kept its TLS libraries mapped from then on.
enum FirstStart {
    /// What an idle notulad holds.
    struct Idle {
        let rssKilobytes: Int
        /// The shared libraries it has mapped, by file name.
        let libraries: [String]
    }

    /// Starts a `notulad` with fresh XDG folders and a catalog served on loopback, and returns what it holds once the
    /// fetched catalog is in its cache.
    static func measure(_ notulad: String, home: URL, bus: Bus) async throws -> Idle {
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        let catalog = home.appendingPathComponent("model-list.json")
        try Data("[]".utf8).write(to: catalog)
        let server = try TestHTTPServer(routes: ["/model-list.json": .file(catalog.path)])
        let service = try await LaunchedService.start(
            notulad, home: home.appendingPathComponent("service"), bus: bus,
            environment: ["NOTULA_MODEL_CATALOG": server.url(for: "/model-list.json")])
        let cache = home.appendingPathComponent("service/cache/notula").path
        try await poll(
            within: .seconds(30),
            until: { ((try? FileManager.default.contentsOfDirectory(atPath: cache)) ?? []).contains { $0.hasPrefix("model-list") } }
        ) { CatalogNeverCached(log: service.log) }
        // The fetch's end settles (its thread and pipes gone) within the second, as the issue measured 3 s after start.
        try await Task.sleep(for: .seconds(1))
        let idle = Idle(rssKilobytes: residentKilobytes(service.pid), libraries: mappedLibraries(service.pid))
        try await service.stop()
        return idle
    }

    struct CatalogNeverCached: Error, CustomStringConvertible {
        let log: String
        var description: String { "notulad never cached the catalog it was pointed at:\n\(log)" }
    }
}
