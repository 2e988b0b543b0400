import Foundation
import Models
import NotulaTestSupport
import Synchronization
import TestPasses
import Testing

/// The actor whose executor the store shares here, as it shares the bus's in notulad.
private actor Isolation {}

/// The store's events, in the order it reports them.
private final class HeardEvents: ModelListener {
    let stream: AsyncStream<ModelEvent>
    private let sink: AsyncStream<ModelEvent>.Continuation

    init() { (stream, sink) = AsyncStream.makeStream(of: ModelEvent.self) }

    func modelsChanged(_ event: ModelEvent) { sink.yield(event) }

    /// The events up to the end of a download, progress left out, and the fractions it reported.
    func untilDownloadEnds() async -> (events: [ModelEvent], fractions: [Double]) {
        var events: [ModelEvent] = []
        var fractions: [Double] = []
        for await event in stream {
            if case .downloadProgressed(_, let fraction) = event {
                fractions.append(fraction)
                continue
            }
            events.append(event)
            if case .downloadEnded = event { break }
        }
        return (events, fractions)
    }
}

/// A model store with no bus: a catalog on the loopback test server whose models are tiny look-alikes, Vosk's
/// folder and Notula's in a temporary folder.
private final class StoreOnAShelf {
    let folder = TemporaryFolder()
    let server: TestHTTPServer
    let heard = HeardEvents()
    let store: ModelStore

    /// - Parameters:
    ///   - languages: Vosk's codes of the catalog's models.
    ///   - cached: Vosk's codes of the catalog known at start, as if cached by an earlier fetch.
    ///   - onDisk: Vosk's codes of the models already in Vosk's folder.
    ///   - catalogSeconds: About how long the catalog takes to arrive.
    ///   - archiveStatus: An error status the archives are answered with, instead of the archives.
    init(
        languages: [String], cached: [String] = [], onDisk: [String] = [], catalogSeconds: Int = 0, archiveStatus: Int? = nil,
        catalogWait: Duration = .seconds(10)
    ) throws {
        let archive = folder.file("model.zip")
        var routes = ["/model-list.json": TestHTTPServer.Route.file(folder.file("model-list.json"), rate: catalogSeconds > 0 ? 4096 : nil)]
        for lang in languages { routes["/\(Self.name(lang)).zip"] = archiveStatus.map { .status($0) } ?? .file(archive) }
        server = try TestHTTPServer(routes: routes)
        try Self.zipModel(into: archive)
        // The server sends 4 KB a second: padding makes the catalog last that many seconds.
        let padding = String(repeating: " ", count: catalogSeconds * 4096)
        try (try Self.catalog(languages, archive: archive, server: server) + padding)
            .write(toFile: folder.file("model-list.json"), atomically: true, encoding: .utf8)
        for lang in onDisk { try Self.makeModel(at: folder.file("vosk/" + Self.name(lang))) }

        let places = ModelPlaces(
            all: [folder.file("vosk"), folder.file("notula")], notula: folder.file("notula"), downloads: folder.file("downloads"))
        let known = ModelStore.Known(
            catalog: try ModelCatalog(json: Data(try Self.catalog(cached, archive: archive, server: server).utf8)),
            installed: InstalledModels.scan(places: places.all))
        store = ModelStore(
            isolation: Isolation(),
            catalogs: ModelCatalogs(
                known: known, source: CatalogSource(address: server.url(for: "/model-list.json"), cacheFolder: folder.path),
                wait: catalogWait),
            installer: ModelInstaller(places: places, loads: { _ throws(UnloadableModel) in }), transcriber: NoPreparing(),
            listener: heard)
    }

    static func name(_ lang: String) -> String { "vosk-model-small-\(lang)-0.22" }

    /// A folder libvosk's layout check takes for a model: what Notula looks for before it loads one.
    private static func makeModel(at path: String) throws {
        for file in ["am/final.mdl", "conf/model.conf"] {
            let url = URL(fileURLWithPath: path + "/" + file)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data("x".utf8).write(to: url)
        }
    }

    /// A zip of a look-alike model, one top folder as Vosk zips them; every language's archive is this one.
    private static func zipModel(into archive: String) throws {
        try output(
            of: "/usr/bin/python3", "-c",
            """
            import sys, zipfile
            with zipfile.ZipFile(sys.argv[1], "w") as z:
                for part in ("am/final.mdl", "conf/model.conf"):
                    z.writestr("\(name("ko"))/" + part, "x")
            """, archive)
    }

    private static func catalog(_ languages: [String], archive: String, server: TestHTTPServer) throws -> String {
        let size = try FileManager.default.attributesOfItem(atPath: archive)[.size] as? Int ?? 0
        let md5 = String(try output(of: "md5sum", archive).prefix(32))
        return try voskCatalog(languages.map { CatalogModel(lang: $0, url: server.url(for: "/\(name($0)).zip"), size: size, md5: md5) })
    }
}

@Suite("The model store, with no bus", .timeLimit(.minutes(1)), .tags(.speech))
struct ModelStoreTests {
    @Test("The supported locales are the catalog's and the installed ones; a tag is matched loosely, another refused")
    func supportedLocales() async throws {
        let shelf = try StoreOnAShelf(languages: ["ko"], onDisk: ["nl"])
        try await shelf.store.refresh()

        #expect(await shelf.store.supportedLocales == ["ko-KR", "nl-NL"])
        #expect(await shelf.store.installedLocales == ["nl-NL"])
        #expect(try await shelf.store.supportedLocale("ko_kr") == "ko-KR")
        await #expect(throws: ModelError.unsupportedLocale(tag: "fr-FR", supported: ["ko-KR", "nl-NL"])) {
            try await shelf.store.supportedLocale("fr-FR")
        }
        #expect(
            ModelError.unsupportedLocale(tag: "fr-FR", supported: []).message.hasSuffix(
                "Supported: none: no speech model is installed and Vosk's catalog could not be fetched yet"))
    }

    @Test("Installing reports its start, the new locale, its end, in order; the model is then installed")
    func installationEvents() async throws {
        let shelf = try StoreOnAShelf(languages: ["ko"])
        try await shelf.store.refresh()

        try await shelf.store.install("ko-KR")
        let heard = await shelf.heard.untilDownloadEnds()

        let name = StoreOnAShelf.name("ko")
        #expect(heard.events.prefix(2) == [.catalogChanged, .localesChanged(installed: false, supported: true)], "the catalog fetched")
        guard case .downloadStarted("ko-KR", name, _) = heard.events.dropFirst(2).first else {
            Issue.record("heard \(heard.events)")
            return
        }
        #expect(
            heard.events.dropFirst(3) == [
                .localesChanged(installed: true, supported: false), .downloadFinished(locale: "ko-KR", model: name),
                .downloadEnded(locale: "ko-KR"),
            ])
        #expect(heard.fractions == heard.fractions.sorted() && heard.fractions.allSatisfy { (0...1).contains($0) })
        #expect(await shelf.store.installedLocales == ["ko-KR"])
        #expect(await shelf.store.downloadingLocale == "")
        #expect(FileManager.default.fileExists(atPath: shelf.folder.file("notula/\(name)/conf/model.conf")))
    }

    @Test("A download the server refuses is reported failed, then ended; nothing is installed")
    func failedDownload() async throws {
        let shelf = try StoreOnAShelf(languages: ["ko"], archiveStatus: 404)
        try await shelf.store.refresh()

        try await shelf.store.install("ko-KR")
        let heard = await shelf.heard.untilDownloadEnds()

        #expect(heard.events.count == 5)
        guard case .downloadFailed("ko-KR", let reason) = heard.events.dropFirst(3).first else {
            Issue.record("heard \(heard.events)")
            return
        }
        #expect(reason.contains("404"))
        #expect(heard.events.last == .downloadEnded(locale: "ko-KR"))
        #expect(await shelf.store.installedLocales == [])
    }

    @Test("A model from elsewhere is not deleted; a missing one is named")
    func refusals() async throws {
        let shelf = try StoreOnAShelf(languages: ["ko"], onDisk: ["nl"])
        try await shelf.store.refresh()

        await #expect(throws: ModelError.notInstalledByNotula(locale: "nl-NL", path: shelf.folder.file("vosk/" + StoreOnAShelf.name("nl"))))
        {
            try await shelf.store.remove("nl_NL")
        }
        await #expect(throws: ModelError.notInstalled(tag: "ko-KR", installed: ["nl-NL"])) { try await shelf.store.remove("ko-KR") }
        #expect(FileManager.default.fileExists(atPath: shelf.folder.file("vosk/" + StoreOnAShelf.name("nl"))))
    }

    @Test("While the catalog is fetched, the cached one is listed, and a pick only the new one serves waits for it")
    func pickWaitsForTheFetch() async throws {
        let shelf = try StoreOnAShelf(languages: ["ko", "nl"], cached: ["nl"], catalogSeconds: 2)
        await shelf.store.startRefresh()

        #expect(await shelf.store.isFetchingCatalog)
        #expect(await shelf.store.supportedLocales == ["nl-NL"])
        let chosen = Chosen()
        #expect(try await shelf.store.pickOnceFetched("ko-KR", choosing: chosen.choose) == "ko-KR")
        #expect(chosen.locales == ["ko-KR"])
        #expect(await shelf.store.supportedLocales == ["ko-KR", "nl-NL"])
    }

    @Test("A pick waits for the catalog only so long, then is answered from the one known")
    func pickWaitIsBounded() async throws {
        let shelf = try StoreOnAShelf(languages: ["ko", "nl"], cached: ["nl"], catalogSeconds: 5, catalogWait: .milliseconds(300))
        await shelf.store.startRefresh()

        let chosen = Chosen()
        // Refused from the cached catalog alone: had the pick waited for the fetch, ko-KR would be served.
        await #expect(throws: ModelError.unsupportedLocale(tag: "ko-KR", supported: ["nl-NL"])) {
            try await shelf.store.pickOnceFetched("ko-KR", choosing: chosen.choose)
        }
        #expect(try await shelf.store.pickOnceFetched("nl-NL", choosing: chosen.choose) == "nl-NL")
        #expect(chosen.locales == ["nl-NL"])
    }
}

/// The locales a pick chose, in order.
private final class Chosen: Sendable {
    private let picked = Mutex<[String]>([])
    var locales: [String] { picked.withLock { $0 } }
    func choose(_ locale: String) { picked.withLock { $0.append(locale) } }
}

/// The store's transcriber where no model is loaded: these tests follow the files and the events alone.
private struct NoPreparing: ModelPreparing {
    func prepare(_ locale: String) {}
    func prepareIfPicked(_ locale: String) {}
}
