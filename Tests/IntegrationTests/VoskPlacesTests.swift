import DBus
import Foundation
import NotulaContract
import NotulaTestSupport
import TestPasses
import Testing

/// A model put where Vosk's tools put them while the service runs. Named in the Makefile's speech suites: it
/// loads the Korean test model.
@Suite("A model put in Vosk's folders while the service runs is found", .timeLimit(.minutes(1)), .tags(.modelLoading))
struct VoskPlacesTests {
    /// Starts the service with no model and an empty catalog, then links the Korean test model into `~/.cache/vosk`.
    private func serviceGivenAModelAfterStart() async throws -> ServiceUnderTest {
        let model = try #require(ProcessInfo.processInfo.environment["NOTULA_TEST_MODEL"], "NOTULA_TEST_MODEL names the Korean model")
        let catalog = FileManager.default.temporaryDirectory.appendingPathComponent("notula-empty-catalog-\(UUID().uuidString).json")
        try Data("[]".utf8).write(to: catalog)
        defer { try? FileManager.default.removeItem(at: catalog) }
        let service = try await ServiceUnderTest.start(environment: ["NOTULA_MODEL_CATALOG": catalog.path])
        try await service.models(.refresh)
        #expect(try await service.modelsProperty(.installedLocales) == .array(element: "s", []))

        let vosk = service.home.appendingPathComponent(".cache/vosk")
        try FileManager.default.createDirectory(at: vosk, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(
            at: vosk.appendingPathComponent("vosk-model-small-ko-0.22"), withDestinationURL: URL(fileURLWithPath: model))
        return service
    }

    @Test("Picking its locale is accepted and loads it, with no Refresh")
    func pickFindsIt() async throws {
        let service = try await serviceGivenAModelAfterStart()

        // Before, refused: "No speech model serves 'ko-KR'. Supported: none".
        try await setLocale(service, "ko-KR")

        #expect(try await service.property(.locale) == .string("ko-KR"))
        try await service.waitForLog("Loaded the ko-KR speech model")
        #expect(try await service.modelsProperty(.installedLocales) == .array(element: "s", [.string("ko-KR")]))
    }

    @Test("Listing the models shows it, and says so to every client")
    func listingFindsIt() async throws {
        let service = try await serviceGivenAModelAfterStart()
        let signals = try await service.signals(of: NotulaBus.modelsPath, interface: NotulaBus.modelsInterface)

        #expect(try await service.modelsProperty(.installedLocales) == .array(element: "s", [.string("ko-KR")]))
        #expect(try await service.modelsProperty(.supportedLocales) == .array(element: "s", [.string("ko-KR")]))
        for await message in signals where message.member == "PropertiesChanged" {
            let changed = try message.argument(1, as: [String: Variant].self)
            #expect(changed["InstalledLocales"] != nil && changed["SupportedLocales"] != nil)
            break
        }
    }
}
