import DBus
import Foundation
import NotulaContract
import NotulaTestSupport
import TestPasses
import Testing

extension ServiceUnderTest {
    func models(_ method: NotulaBus.Models.Method, _ arguments: [Value] = []) async throws {
        try await call(NotulaBus.modelsPath, NotulaBus.modelsInterface, method.rawValue, arguments)
    }

    func modelsProperty(_ modelsProperty: NotulaBus.Models.Property) async throws -> Value {
        try await property(modelsProperty.rawValue, of: NotulaBus.modelsPath, interface: NotulaBus.modelsInterface)
    }

    var modelsFolder: URL { home.appendingPathComponent("data/notula/models") }
    var downloadsFolder: URL { home.appendingPathComponent("cache/notula/downloads") }

    /// What is in the models folder, hidden entries included; empty when it does not exist.
    var modelsFolderEntries: [String] { ((try? FileManager.default.contentsOfDirectory(atPath: modelsFolder.path)) ?? []).sorted() }
}

/// The Models object's signals up to the end of a download, as lines (`DownloadStarted ko-KR …`), and the
/// progress reported on the way.
func untilDownloadEnds(_ signals: AsyncStream<Message>) async -> (events: [String], progress: [Double]) {
    var events: [String] = []
    var progress: [Double] = []
    for await message in signals {
        if message.member == "PropertiesChanged" {
            if let value = try? message.argument(1, as: [String: Variant].self)["DownloadProgress"]?.get(Double.self) {
                progress.append(value)
            }
            continue
        }
        let words = message.body.map { value -> String in
            switch value {
            case .string(let text): text
            case .uint64(let number): String(number)
            default: "\(value)"
            }
        }
        events.append(([message.member ?? ""] + words).joined(separator: " "))
        if !message.isSignal(.downloadStarted) { break }
    }
    return (events, progress)
}

func setLocale(_ service: ServiceUnderTest, _ tag: String) async throws {
    try await service.set(.locale, to: .string(tag))
}

@Suite("Models are downloaded when their locale is picked", .serialized, .tags(.speech))
struct ModelDownloadTests {
    @Test func pickingALocaleInstallsItsModelAndRecordingsAreTranscribed() async throws {
        let archive = try ModelArchives.korean.get()
        let size = try FileManager.default.attributesOfItem(atPath: archive.path)[.size] as? Int ?? 0
        let shop = try ModelShop([ModelShop.Offer(archive: archive)])
        let service = try await ServiceUnderTest.start(environment: ["NOTULA_MODEL_CATALOG": shop.catalogAddress])
        let signals = try await service.signals(of: NotulaBus.modelsPath, interface: NotulaBus.modelsInterface)
        try await service.models(.refresh)
        #expect(try await service.modelsProperty(.supportedLocales) == .array(element: "s", [.string("ko-KR")]))
        #expect(try await service.modelsProperty(.installedLocales) == .array(element: "s", []))

        try await setLocale(service, "ko-KR")
        let download = await untilDownloadEnds(signals)

        #expect(
            download.events == [
                "DownloadStarted ko-KR vosk-model-small-ko-0.22 \(size)", "DownloadFinished ko-KR vosk-model-small-ko-0.22",
            ])
        #expect(download.progress == download.progress.sorted() && download.progress.allSatisfy { (0...1).contains($0) })
        #expect(try await service.modelsProperty(.installedLocales) == .array(element: "s", [.string("ko-KR")]))
        #expect(try await service.modelsProperty(.downloadingLocale) == .string(""))
        #expect(service.modelsFolderEntries == ["vosk-model-small-ko-0.22"])
        #expect(((try? FileManager.default.contentsOfDirectory(atPath: service.downloadsFolder.path)) ?? []).isEmpty)

        let recorderSignals = try await service.recorderSignals()
        try await service.recorder(.start)
        try await #require(service.sink).play(try speech("annyeong haseyo"))
        let memo = try await service.recorder(.process).argument(0, as: ObjectPath.self)
        for await message in recorderSignals where message.isSignal(.processed) || message.isSignal(.failed) { break }
        let text = try await service.memo(.getTranscript, of: memo).argument(0, as: String.self)
        #expect(!text.isEmpty)
    }

    @Test func aRecordingSentWhileItsModelDownloadsWaitsForItAndIsTranscribed() async throws {
        let shop = try ModelShop([ModelShop.Offer(archive: try ModelArchives.korean.get(), route: { .file($0, rate: 40_000_000) })])
        let service = try await ServiceUnderTest.start(environment: ["NOTULA_MODEL_CATALOG": shop.catalogAddress])
        try await service.models(.refresh)
        let modelSignals = try await service.signals(of: NotulaBus.modelsPath, interface: NotulaBus.modelsInterface)
        let recorderSignals = try await service.recorderSignals()

        try await setLocale(service, "ko-KR")
        try await service.recorder(.start)
        try await #require(service.sink).play(try speech("annyeong haseyo"))
        let memo = try await service.recorder(.process).argument(0, as: ObjectPath.self)
        #expect(try await service.modelsProperty(.downloadingLocale) == .string("ko-KR"), "the download outlasts the recording")
        #expect(try await service.property(.state) == .string("processing"))

        let download = await untilDownloadEnds(modelSignals)
        #expect(download.events.last == "DownloadFinished ko-KR vosk-model-small-ko-0.22")
        for await message in recorderSignals where message.isSignal(.processed) || message.isSignal(.failed) {
            #expect(message.isSignal(.processed))
            break
        }
        #expect(try await service.property(.state) == .string("idle"))
        let text = try await service.memo(.getTranscript, of: memo).argument(0, as: String.self)
        #expect(!text.isEmpty)
    }

    @Test func theCommandLineListsInstallsAndRemovesModels() async throws {
        let shop = try ModelShop([ModelShop.Offer(archive: try ModelArchives.korean.get())])
        let service = try await ServiceUnderTest.start(environment: ["NOTULA_MODEL_CATALOG": shop.catalogAddress])
        try await service.models(.refresh)
        func notula(_ arguments: String...) throws -> CommandResult {
            try run(binaryDirectory.appendingPathComponent("notula").path, arguments, environment: service.environment)
        }

        #expect(try notula("models", "list").output == "ko-KR available\n")
        let install = try notula("models", "install", "ko_kr")
        #expect(install.status == 0, "\(install.errorOutput)")
        #expect(install.output == "Installed vosk-model-small-ko-0.22 for ko-KR\n")
        #expect(try notula("models", "list").output == "ko-KR installed\n")
        #expect(try notula("models", "install", "ko-KR").output == "The model for ko-KR is installed\n")

        let unknown = try notula("locale", "xx-YY")
        #expect(unknown.status == 2)
        #expect(unknown.errorOutput.contains("Supported: ko-KR"))
        #expect(try notula("locale", "ko-KR").output == "ko-KR\n")
        #expect(try notula("locale").output == "ko-KR\n")

        #expect(try notula("models", "remove", "ko-KR").status == 0)
        #expect(try notula("models", "list").output == "ko-KR available\n")
        #expect(service.modelsFolderEntries.isEmpty)
    }
}
