import Downloading
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
    ///   - catalogStatus: An error status the catalog is answered with, instead of the catalog.
    ///   - whisper: Whisper's codes of the Whisper catalog's models, each a look-alike ggml file (`ggml-tiny`
    ///     for `multi`, else `ggml-tiny.CODE`); no Whisper catalog when empty.
    ///   - sherpa: sherpa-onnx's catalog: archives of look-alike models, as sherpa-onnx publishes them; none when empty.
    init(
        languages: [String], cached: [String] = [], onDisk: [String] = [], catalogSeconds: Int = 0, archiveStatus: Int? = nil,
        catalogStatus: Int? = nil, whisper: [String] = [], sherpa: [SherpaArchive] = [], catalogWait: Duration = .seconds(10)
    ) throws {
        let archive = folder.file("model.zip")
        var routes = [
            "/model-list.json": catalogStatus.map { .status($0) }
                ?? TestHTTPServer.Route.file(folder.file("model-list.json"), rate: catalogSeconds > 0 ? 4096 : nil)
        ]
        for lang in languages { routes["/\(Self.name(lang)).zip"] = archiveStatus.map { .status($0) } ?? .file(archive) }
        let ggml = folder.file("ggml.bin")
        try Data("lmgg look-alike".utf8).write(to: URL(fileURLWithPath: ggml))
        for code in whisper { routes["/\(Self.whisperName(code)).bin"] = .file(ggml) }
        for archive in sherpa {
            try archive.make(in: folder)
            routes["/\(archive.name).tar.bz2"] = .file(folder.file(archive.name + ".tar.bz2"))
        }
        server = try TestHTTPServer(routes: routes)
        try Self.zipModel(into: archive)
        // The server sends 4 KB a second: padding makes the catalog last that many seconds.
        let padding = String(repeating: " ", count: catalogSeconds * 4096)
        try (try Self.catalog(languages, archive: archive, server: server) + padding)
            .write(toFile: folder.file("model-list.json"), atomically: true, encoding: .utf8)
        for lang in onDisk { try Self.makeModel(at: folder.file("vosk/" + Self.name(lang))) }

        let places = ModelPlaces(
            all: [folder.file("vosk"), folder.file("notula")], notula: folder.file("notula"), downloads: folder.file("downloads"))
        let ggmlSHA1 = SHA1.hexDigest(of: Array("lmgg look-alike".utf8))
        let server = server
        let whisperCatalog = ModelCatalog(
            entries: whisper.map { code in
                CatalogEntry(
                    voskCode: code, languageName: code, name: Self.whisperName(code), url: URL(string: server.url(for: "/\(Self.whisperName(code)).bin"))!,
                    size: 15, sizeText: "15 B", checksum: .sha1(ggmlSHA1), kind: .whisper, isObsolete: false, version: "")
            })
        let folder = folder
        let sherpaCatalog = ModelCatalog(entries: try sherpa.map { try $0.entry(in: folder, url: server.url(for: "/\($0.name).tar.bz2")) })
        let known = ModelStore.Known(
            catalog: try ModelCatalog(json: Data(try Self.catalog(cached, archive: archive, server: server).utf8)),
            whisperCatalog: whisperCatalog, sherpaCatalog: sherpaCatalog, installed: InstalledModels.scan(places: places.all))
        store = ModelStore(
            isolation: Isolation(),
            catalogs: ModelCatalogs(
                known: known, source: CatalogSource(address: server.url(for: "/model-list.json"), cacheFolder: folder.path),
                wait: catalogWait),
            installer: ModelInstaller(places: places, loads: { _, _ throws(UnloadableModel) in }), transcriber: NoPreparing(),
            listener: heard)
    }

    static func name(_ lang: String) -> String { "vosk-model-small-\(lang)-0.22" }
    static func whisperName(_ code: String) -> String { code == "multi" ? "ggml-tiny" : "ggml-tiny.\(code)" }

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
        await #expect(throws: ModelError.unsupportedLocale(tag: "fr-FR", supported: ["ko-KR", "nl-NL"], catalog: .fetched)) {
            try await shelf.store.supportedLocale("fr-FR")
        }
    }

    @Test("A locale only an accurate model serves can be picked, and brings that model; one Vosk serves brings Vosk's")
    func aPickBringsItsModel() async throws {
        let shelf = try StoreOnAShelf(languages: ["ko"], whisper: ["multi"])
        try await shelf.store.refresh()

        #expect(await shelf.store.supportedLocales.contains("hr-HR"), "Whisper's multilingual model serves Croatian")
        let chosen = Chosen()
        #expect(try await shelf.store.pickOnceFetched("hr_hr", choosing: chosen.choose) == "hr-HR")
        let heard = await shelf.heard.untilDownloadEnds()
        #expect(heard.events.contains { if case .downloadStarted("hr-HR", "ggml-tiny", _) = $0 { true } else { false } }, "heard \(heard.events)")
        #expect(heard.events.contains(.downloadFinished(locale: "hr-HR", model: "ggml-tiny")), "heard \(heard.events)")
        #expect(FileManager.default.fileExists(atPath: shelf.folder.file("notula/ggml-tiny.bin")))

        // Korean is served by the Whisper model now on disk too, but Vosk's model follows the words live: it comes.
        #expect(try await shelf.store.pickOnceFetched("ko-KR", choosing: chosen.choose) == "ko-KR")
        let korean = await shelf.heard.untilDownloadEnds()
        #expect(korean.events.contains(.downloadFinished(locale: "ko-KR", model: StoreOnAShelf.name("ko"))), "heard \(korean.events)")
        #expect(chosen.locales == ["hr-HR", "ko-KR"])
    }

    @Test("A sherpa-onnx archive is installed whole once its SHA-256 matches; a wrong digest or a missing file is refused")
    func sherpaArchives() async throws {
        let v3 = "sherpa-onnx-nemo-parakeet-tdt-0.6b-v3-int8"
        let tiny = "sherpa-onnx-moonshine-tiny-en-int8"
        let base = "sherpa-onnx-moonshine-base-en-int8"
        let shelf = try StoreOnAShelf(
            languages: ["ko"],
            sherpa: [
                SherpaArchive(name: v3, kind: .parakeet, languages: "hr,de,en"),
                SherpaArchive(name: tiny, kind: .moonshine, languages: "en", digest: String(repeating: "0", count: 64)),
                SherpaArchive(name: base, kind: .moonshine, languages: "en", lacking: "cached_decode.int8.onnx"),
            ])
        try await shelf.store.refresh()

        // Croatian only Parakeet serves: a pick brings it.
        let chosen = Chosen()
        #expect(try await shelf.store.pickOnceFetched("hr-HR", choosing: chosen.choose) == "hr-HR")
        let heard = await shelf.heard.untilDownloadEnds()
        #expect(heard.events.contains(.downloadFinished(locale: "hr-HR", model: v3)), "heard \(heard.events)")
        for file in SherpaModelFiles.files(of: .parakeet) {
            #expect(FileManager.default.fileExists(atPath: shelf.folder.file("notula/\(v3)/\(file)")))
        }
        #expect(await shelf.store.installedLocales.contains("de-DE"))
        #expect(await shelf.store.availableModels.contains { $0.name == v3 && $0.locale == "hr-HR" && $0.installed && $0.kind == .parakeet })

        try await shelf.store.install("en-US", model: tiny)
        let wrongDigest = await shelf.heard.untilDownloadEnds()
        #expect(
            wrongDigest.events.contains { if case .downloadFailed("en-US", let reason) = $0 { reason.contains("SHA-256") } else { false } },
            "heard \(wrongDigest.events)")

        try await shelf.store.install("en-US", model: base)
        let lacking = await shelf.heard.untilDownloadEnds()
        #expect(
            lacking.events.contains {
                if case .downloadFailed("en-US", let reason) = $0 { reason.contains("lacks cached_decode.int8.onnx") } else { false }
            }, "heard \(lacking.events)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: shelf.folder.file("notula")) == [v3])
    }

    @Test("While Vosk's catalog is on its way, a pick of a locale an accurate model serves waits to learn whether Vosk's does")
    func aPickWaitsToLearnWhetherVoskServesIt() async throws {
        let shelf = try StoreOnAShelf(languages: ["ko"], catalogSeconds: 2, whisper: ["multi"])
        await shelf.store.startRefresh()

        let chosen = Chosen()
        #expect(try await shelf.store.pickOnceFetched("ko-KR", choosing: chosen.choose) == "ko-KR")
        let heard = await shelf.heard.untilDownloadEnds()
        #expect(heard.events.contains(.downloadFinished(locale: "ko-KR", model: StoreOnAShelf.name("ko"))), "heard \(heard.events)")
        #expect(!FileManager.default.fileExists(atPath: shelf.folder.file("notula/ggml-tiny.bin")))
    }

    @Test("A refusal says what is known of Vosk's catalog: on its way, failed with its reason, fetched")
    func aRefusalSaysWhatIsKnownOfTheCatalog() async throws {
        let failing = try StoreOnAShelf(languages: ["ko"], catalogStatus: 503)
        await #expect(throws: ModelError.self) { try await failing.store.refresh() }
        do throws(ModelError) {
            _ = try await failing.store.supportedLocale("fr-FR")
            Issue.record("fr-FR was supported")
        } catch {
            guard case .unsupportedLocale("fr-FR", [], .failed(let reason)) = error else { return #expect(Bool(false), "\(error)") }
            #expect(reason.contains("503"))
            #expect(error.message.hasPrefix("No speech model serves 'fr-FR'. Supported: none. Vosk's catalog could not be fetched"))
        }
        let offline = try StoreOnAShelf(languages: ["ko"], onDisk: ["ko"])
        try await offline.store.install("ko-KR")
        #expect(await offline.store.downloadingLocale == "", "the model on disk is what Install would bring")
        #expect(
            ModelError.notInCatalog(locale: "ko-KR", catalog: .notFetched).message
                == "Vosk's catalog has not been fetched yet: a model for ko-KR can be installed once it is.")

        let slow = try StoreOnAShelf(languages: ["ko"], catalogSeconds: 3)
        await slow.store.startRefresh()
        await #expect(throws: ModelError.unsupportedLocale(tag: "fr-FR", supported: [], catalog: .fetching)) {
            try await slow.store.supportedLocale("fr-FR")
        }
        #expect(
            ModelError.unsupportedLocale(tag: "fr-FR", supported: [], catalog: .fetched).message
                == "No speech model serves 'fr-FR'. Supported: none: no catalog lists a model, and none is installed.")
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
        await #expect(throws: ModelError.unsupportedLocale(tag: "ko-KR", supported: ["nl-NL"], catalog: .fetching)) {
            try await shelf.store.pickOnceFetched("ko-KR", choosing: chosen.choose)
        }
        #expect(try await shelf.store.pickOnceFetched("nl-NL", choosing: chosen.choose) == "nl-NL")
        #expect(chosen.locales == ["nl-NL"])
    }
}

/// A look-alike of a sherpa-onnx model archive: one folder of the files its recogniser opens, in a `.tar.bz2`.
struct SherpaArchive {
    let name: String
    let kind: ModelKind
    let languages: String
    /// A file of the kind left out.
    var lacking: String?
    /// A digest the catalog gives instead of the archive's.
    var digest: String?

    func make(in folder: TemporaryFolder) throws {
        let files = SherpaModelFiles.files(of: kind).filter { $0 != lacking }
        try output(
            of: [
                "/usr/bin/python3", "-c",
                """
                import io, sys, tarfile
                with tarfile.open(sys.argv[1], "w:bz2") as archive:
                    for name in sys.argv[3:]:
                        data = b"look-alike " + name.encode()
                        member = tarfile.TarInfo(sys.argv[2] + "/" + name)
                        member.size = len(data)
                        archive.addfile(member, io.BytesIO(data))
                """, folder.file(name + ".tar.bz2"), name,
            ] + files)
    }

    func entry(in folder: TemporaryFolder, url: String) throws -> CatalogEntry {
        let archive = folder.file(name + ".tar.bz2")
        let size = try FileManager.default.attributesOfItem(atPath: archive)[.size] as? Int ?? 0
        return CatalogEntry(
            voskCode: languages, languageName: languages, name: name, url: URL(string: url)!, size: size, sizeText: "",
            checksum: .sha256(try digest ?? SHA256.hexDigest(ofFile: archive)), kind: kind, isObsolete: false, version: "")
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
