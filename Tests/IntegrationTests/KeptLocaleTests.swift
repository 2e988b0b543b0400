import DBus
import Foundation
import NotulaContract
import NotulaTestSupport
import Testing

/// The locale kept in settings.json, realigned at start to those a model serves — here, the catalog cached by an
/// earlier run, which serves Korean and Dutch.
@Suite("A kept locale realigned to the supported ones at start", .serialized)
struct KeptLocaleTests {
    /// A home whose cache holds a fresh catalog of `languages` (Vosk's codes), as a run before this one fetched it.
    private func home(cachingCatalogOf languages: [String]) throws -> URL {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("notula-test-\(UUID().uuidString)")
        let cache = home.appendingPathComponent("cache/notula")
        try FileManager.default.createDirectory(at: cache, withIntermediateDirectories: true)
        // Nothing listens at port 9: the installation the start asks for fails at once.
        let catalog = try voskCatalog(languages.map { CatalogModel(lang: $0, url: "http://127.0.0.1:9/vosk-model-small-\($0)-0.22.zip") })
        try Data(catalog.utf8).write(to: cache.appendingPathComponent("model-list.json"))
        return home
    }

    private func keptLocale(in service: ServiceUnderTest) throws -> String {
        let settings = try Data(contentsOf: service.home.appendingPathComponent("config/notula/settings.json"))
        return try #require((try JSONSerialization.jsonObject(with: settings) as? [String: Any])?["locale"] as? String)
    }

    @Test(arguments: ["ko", "ko_KR", "KO-kr"])
    func aTagWrittenByHandBecomesTheSupportedOneOfItsLanguage(_ kept: String) async throws {
        let home = try home(cachingCatalogOf: ["ko", "nl"])
        let service = try await ServiceUnderTest.start(settings: [#""locale": "\#(kept)""#], home: home)
        #expect(try await service.property(.locale) == .string("ko-KR"))
        #expect(service.log.contains("\(kept), is not one a model serves: transcribing in ko-KR"), "\(service.log)")
        #expect(try keptLocale(in: service) == "ko-KR", "kept as a pick keeps it")

        let status = service.stop()
        #expect(status == 0, "\(service.log)")
        let again = try await ServiceUnderTest.start(home: home)
        #expect(try await again.property(.locale) == .string("ko-KR"))
        #expect(!again.log.contains("is not one a model serves"), "realigned once, then kept")
    }

    @Test func aLocaleTheCatalogNoLongerServesGivesTheOneTheUsersLanguageGuesses() async throws {
        let home = try home(cachingCatalogOf: ["ko", "nl"])
        let service = try await ServiceUnderTest.start(
            environment: ["LANG": "nl_BE.UTF-8", "LC_ALL": "", "LC_MESSAGES": ""], settings: [#""locale": "de-DE""#], home: home)
        #expect(try await service.property(.locale) == .string("nl-NL"))
        #expect(service.log.contains("de-DE, is not one a model serves: transcribing in nl-NL"), "\(service.log)")
    }

    @Test func beforeAnyCatalogIsKnownTheKeptLocaleStays() async throws {
        let service = try await ServiceUnderTest.start(settings: [#""locale": "de-DE""#])
        #expect(try await service.property(.locale) == .string("de-DE"))
        #expect(!service.log.contains("is not one a model serves"))
    }
}
