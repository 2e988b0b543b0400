import DBus
import Foundation
import NotulaContract
import NotulaTestSupport
import Testing

/// Whisper's ggml files served over loopback as huggingface.co serves them, listed by a catalog that
/// NOTULA_WHISPER_CATALOG names.
private final class WhisperShop {
    struct Offer {
        var name = "ggml-tiny.en"
        var lang = "en"
        var file: URL
        /// Another SHA-1 than the file's, to serve a damaged download.
        var sha1: String?
    }

    let server: TestHTTPServer
    let catalogFile: URL

    init(_ offers: [Offer], in folder: URL) throws {
        let server = try TestHTTPServer(routes: Dictionary(uniqueKeysWithValues: offers.map { ("/\($0.name).bin", .file($0.file.path)) }))
        self.server = server
        let entries = try offers.map { offer in
            let size = try FileManager.default.attributesOfItem(atPath: offer.file.path)[.size] as? Int ?? 0
            return [
                "lang": offer.lang, "name": offer.name, "url": server.url(for: "/\(offer.name).bin"), "size": size, "type": "whisper",
                "obsolete": "false", "sha1": try offer.sha1 ?? String(output(of: "sha1sum", offer.file.path).prefix(40)),
            ] as [String: Any]
        }
        catalogFile = folder.appendingPathComponent("whisper-models.json")
        try JSONSerialization.data(withJSONObject: entries).write(to: catalogFile)
    }
}

@Suite("Whisper models installed from their catalog", .serialized, .timeLimit(.minutes(3)))
struct WhisperModelInstallTests {
    private let tinyEn = packageRoot.appendingPathComponent(".build/whisper/ggml-tiny.en.bin")

    /// Starts the service with the shop's catalog, fetched, and asks for `model` of `locale`; what the Models object
    /// then signalled, and the failure's reason.
    private func install(
        _ model: String, of locale: String, from shop: WhisperShop
    ) async throws -> (service: ServiceUnderTest, events: [String], failure: String?) {
        let service = try await ServiceUnderTest.start(environment: ["NOTULA_WHISPER_CATALOG": shop.catalogFile.path])
        try? await service.models(.refresh)
        let signals = try await service.signals(of: NotulaBus.modelsPath, interface: NotulaBus.modelsInterface)
        try await service.models(.installModel, [.string(locale), .string(model)])
        var (events, failure): ([String], String?) = ([], nil)
        for await message in signals where message.member != "PropertiesChanged" {
            events.append(message.member ?? "")
            if message.isSignal(.downloadFailed) { failure = try message.argument(1, as: String.self) }
            if !message.isSignal(.downloadStarted) { break }
        }
        return (service, events, failure)
    }

    @Test func aModelIsDownloadedCheckedAndListedUnderEveryLocaleItServes() async throws {
        let bench = try Workbench()
        let shop = try WhisperShop([WhisperShop.Offer(file: tinyEn)], in: bench.folder)
        let (service, events, failure) = try await install("ggml-tiny.en", of: "en-GB", from: shop)

        #expect(events == ["DownloadStarted", "DownloadFinished"], "\(failure ?? "")")
        let installed = service.modelsFolder.appendingPathComponent("ggml-tiny.en.bin")
        #expect(try output(of: "sha1sum", installed.path).prefix(40) == output(of: "sha1sum", tinyEn.path).prefix(40))
        #expect(try FileManager.default.attributesOfItem(atPath: installed.path)[.posixPermissions] as? Int == 0o600)
        #expect(((try? FileManager.default.contentsOfDirectory(atPath: service.downloadsFolder.path)) ?? []).isEmpty)
        let available = try [DBusStruct<String, String, String, UInt64, Bool>](
            dbusValue: try await service.modelsProperty(.availableModels))
        let tiny = available.filter { $0.fields.1 == "ggml-tiny.en" }
        #expect(Set(tiny.map(\.fields.0)) == ["en-US", "en-GB", "en-IN"] && tiny.allSatisfy { $0.fields.2 == "whisper" && $0.fields.4 })
        // Locales to record in, with Whisper alone.
        #expect(try [String](dbusValue: try await service.modelsProperty(.installedLocales)) == ["en-GB", "en-IN", "en-US"])
        try await service.models(.useModel, [.string("en-US"), .string("ggml-tiny.en")])
        #expect(try [String: String](dbusValue: try await service.modelsProperty(.accurateModels)) == ["en-US": "ggml-tiny.en"])

        try await service.models(.removeModel, [.string("en-US"), .string("ggml-tiny.en")])
        #expect(service.modelsFolderEntries.isEmpty)
        #expect(
            try [String: String](dbusValue: try await service.modelsProperty(.accurateModels)).isEmpty, "a removed model is chosen no more")
    }

    /// How a Whisper download goes wrong, and a word the person is told.
    enum Fault: String, CaseIterable, CustomTestStringConvertible {
        case sha1Mismatch, notGgml

        var testDescription: String { rawValue }
        var said: String { self == .sha1Mismatch ? "SHA-1 checksum" : "not a ggml Whisper model" }
    }

    @Test(arguments: Fault.allCases)
    func aDamagedOrForeignFileIsNeverInstalled(_ fault: Fault) async throws {
        let bench = try Workbench()
        let random = try bench.randomFile(megabytes: 2)
        let offer = WhisperShop.Offer(
            name: "ggml-base", lang: "multi", file: random, sha1: fault == .sha1Mismatch ? String(repeating: "0", count: 40) : nil)
        let shop = try WhisperShop([offer], in: bench.folder)
        let (service, events, failure) = try await install("ggml-base", of: "de-DE", from: shop)

        #expect(events == ["DownloadStarted", "DownloadFailed"])
        #expect(failure?.contains(fault.said) == true, "\(failure ?? "no message")")
        #expect(service.modelsFolderEntries.isEmpty)
        #expect(((try? FileManager.default.contentsOfDirectory(atPath: service.downloadsFolder.path)) ?? []).isEmpty)
        #expect(try await service.modelsProperty(.downloadingLocale) == .string(""))
    }
}
