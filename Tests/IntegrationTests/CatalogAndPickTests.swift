import DBus
import Foundation
import Models
import NotulaContract
import NotulaTestSupport
import Testing

/// Two behaviours of the model catalog that only show over time or in a race: the catalog fetched again at a start
/// a day after the last fetch, and a pick of another locale that cancels the download in flight.
@Suite("The catalog a day later, and a pick that cancels a download", .serialized, .timeLimit(.minutes(3)))
struct CatalogAndPickTests {
    @Test func aStartADayAfterTheLastFetchFetchesTheCatalogAgain() async throws {
        let bench = try Workbench()
        let shop = try ModelShop([
            ModelShop.Offer(archive: try bench.randomFile(megabytes: 1)),
            ModelShop.Offer(lang: "nl", name: "vosk-model-small-nl-0.22", archive: try bench.randomFile(megabytes: 1)),
        ])
        // The run before fetched a catalog serving Korean only, two days ago.
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("notula-test-\(UUID().uuidString)")
        let cache = home.appendingPathComponent("cache/notula")
        try FileManager.default.createDirectory(at: cache, withIntermediateDirectories: true)
        let first = try await ServiceUnderTest.start(environment: ["NOTULA_MODEL_CATALOG": shop.catalogAddress], home: home)
        try await first.models(.refresh)
        #expect(first.stop() == 0)
        // Vosk's catalog's copy: the empty accurate catalogs the tests name are cached beside it.
        let catalog = URL(fileURLWithPath: CatalogSource(address: shop.catalogAddress, cacheFolder: cache.path).cacheFile)
        #expect(FileManager.default.fileExists(atPath: catalog.path))
        try Data(try voskCatalog([CatalogModel(lang: "ko", url: "http://127.0.0.1:9/ko.zip")]).utf8).write(to: catalog)
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -2 * 86_400)], ofItemAtPath: catalog.path)
        let fetchesBefore = try shop.server.requests.filter { $0.path == "/vosk/models/model-list.json" }.count

        let again = try await ServiceUnderTest.start(environment: ["NOTULA_MODEL_CATALOG": shop.catalogAddress], home: home)
        let signals = try await again.signals(of: NotulaBus.modelsPath, interface: NotulaBus.modelsInterface)
        if try await again.modelsProperty(.supportedLocales) != .array(element: "s", [.string("ko-KR"), .string("nl-NL")]) {
            for await message in signals {
                let changed = try? message.argument(1, as: [String: Variant].self)["SupportedLocales"]?.get([String].self)
                if changed == ["ko-KR", "nl-NL"] { break }
            }
        }
        #expect(try shop.server.requests.filter { $0.path == "/vosk/models/model-list.json" }.count == fetchesBefore + 1)
    }

    @Test func pickingAnotherLocaleCancelsTheDownloadInFlight() async throws {
        let bench = try Workbench()
        let shop = try ModelShop([
            ModelShop.Offer(archive: try bench.randomFile(megabytes: 20), route: { .file($0, rate: 1_000_000) }),
            ModelShop.Offer(
                lang: "nl", name: "vosk-model-small-nl-0.22", archive: try bench.randomFile(megabytes: 20),
                route: { .file($0, rate: 1_000_000) }),
        ])
        let service = try await ServiceUnderTest.start(environment: ["NOTULA_MODEL_CATALOG": shop.catalogAddress])
        try await service.models(.refresh)
        let signals = try await service.signals(of: NotulaBus.modelsPath, interface: NotulaBus.modelsInterface)

        try await setLocale(service, "nl-NL")
        var events: [String] = []
        var picked = false
        for await message in signals {
            if message.member == "PropertiesChanged", !picked,
                let progress = try? message.argument(1, as: [String: Variant].self)["DownloadProgress"]?.get(Double.self), progress > 0
            {
                picked = true
                try await setLocale(service, "ko-KR")
            } else if let member = message.member, member != "PropertiesChanged" {
                events.append("\(member) \((try? message.argument(0, as: String.self)) ?? "")")
                if events.count == 3 { break }
            }
        }

        // The cancelled download is told once its files are gone, which may be after the new one began.
        #expect(events.first == "DownloadStarted nl-NL")
        #expect(Set(events.dropFirst()) == ["DownloadCancelled nl-NL", "DownloadStarted ko-KR"])
        #expect(try await service.modelsProperty(.downloadingLocale) == .string("ko-KR"))
        try await service.models(.cancel)
    }
}
