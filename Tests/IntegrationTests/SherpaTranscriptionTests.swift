import DBus
import Foundation
import NotulaContract
import NotulaTestSupport
import TestPasses
import Testing

/// The models `scripts/install-sherpa BIN --test` makes, and the library it puts beside notulad.
private enum MadeSherpaModels {
    static let folder = packageRoot.appendingPathComponent(".build/sherpa")
    static var present: Bool {
        FileManager.default.fileExists(atPath: binaryDirectory.appendingPathComponent("sherpa/libsherpa-onnx-c-api.so").path)
            && FileManager.default.fileExists(atPath: folder.appendingPathComponent("SENTENCE").path)
    }
    /// What the made models write for any stretch of speech: "notula heard you".
    static var sentence: String {
        ((try? String(contentsOf: folder.appendingPathComponent("SENTENCE"), encoding: .utf8)) ?? "")
            .trimmingCharacters(in: .whitespacesAndNewlines)
    }

    static let parakeet = "sherpa-onnx-nemo-parakeet-tdt-0.6b-v2-int8"
    static let europeanParakeet = "sherpa-onnx-nemo-parakeet-tdt-0.6b-v3-int8"
    static let moonshine = "sherpa-onnx-moonshine-tiny-en-int8"

    /// Links the made model `made` (`parakeet`, `broken/truncated`…) into `place` under the archive's name `name`.
    static func link(_ made: String, as name: String, in place: URL) throws {
        try FileManager.default.createSymbolicLink(
            at: place.appendingPathComponent(name), withDestinationURL: folder.appendingPathComponent(made))
    }
}

/// Memos written by sherpa-onnx's recognisers through the real notulad, on the made models (they hear loudness, not
/// words: any stretch of speech is their sentence), in the decoding helper.
@Suite(
    "sherpa-onnx's models write memos and utterances", .serialized, .timeLimit(.minutes(5)), .tags(.modelLoading),
    .enabled(if: MadeSherpaModels.present, "needs sherpa-onnx and the made models: scripts/install-sherpa BIN --test makes them"))
struct SherpaTranscriptionTests {
    /// Waits for the memo's transcription again to end; its status then.
    private func transcribe(_ memo: ObjectPath, with model: String, in service: ServiceUnderTest) async throws -> String {
        let changes = try await service.signals(of: memo, interface: NotulaBus.memoInterface)
        try await service.memo(.transcribe, of: memo, [.string("en-US"), .string(model)])
        for await message in changes {
            let status = try? message.argument(1, as: [String: Variant].self)["Status"]?.get(String.self)
            if let status, status == "done" || status == "failed" { return status }
        }
        return ""
    }

    @Test func aMemoTranscribedAgainWithParakeetOrMoonshineIsTheirSentence() async throws {
        let place = try modelPlace()
        defer { try? FileManager.default.removeItem(at: place) }
        try MadeSherpaModels.link("parakeet", as: MadeSherpaModels.parakeet, in: place)
        try MadeSherpaModels.link("moonshine", as: MadeSherpaModels.moonshine, in: place)
        let service = try await ServiceUnderTest.start(environment: ["VOSK_MODEL_PATH": place.path], settings: [#""locale": "ko-KR""#])
        let available = try [DBusStruct<String, String, String, UInt64, Bool>](
            dbusValue: try await service.modelsProperty(.availableModels))
        #expect(available.contains { $0.fields.0 == "en-US" && $0.fields.1 == MadeSherpaModels.parakeet && $0.fields.2 == "parakeet" })
        #expect(available.contains { $0.fields.0 == "en-GB" && $0.fields.1 == MadeSherpaModels.moonshine && $0.fields.2 == "moonshine" })

        let signals = try await service.recorderSignals()
        try await service.recorder(.start)
        try await service.sink?.play(try speech("The patient reports mild chest pain.", voice: "en-us"))
        let memo = try await service.recorder(.process).argument(0, as: ObjectPath.self)
        for await signal in signals where signal.isSignal(.processed) || signal.isSignal(.failed) { break }

        for model in [MadeSherpaModels.parakeet, MadeSherpaModels.moonshine] {
            let status = try await transcribe(memo, with: model, in: service)
            let failure = try await service.property(.failure, of: memo)
            #expect(status == "done", "\(failure)")
            #expect(try await service.memo(.getTranscript, of: memo).argument(0, as: String.self) == MadeSherpaModels.sentence)
            #expect(try await service.property(.model, of: memo) == .string(model))
            #expect(service.log.contains("with \(model), in its helper process"), "sherpa-onnx decodes it, in the helper")
        }
    }

    /// Vosk ends each utterance (the Korean model under an English name), Parakeet writes it again: a `revised` line
    /// each, the memo Parakeet's.
    @Test func theAccuratePassWritesEachUtteranceWithParakeet() async throws {
        let place = try englishModelPlace()
        defer { try? FileManager.default.removeItem(at: place) }
        try MadeSherpaModels.link("parakeet", as: MadeSherpaModels.parakeet, in: place)
        let service = try await ServiceUnderTest.start(environment: ["VOSK_MODEL_PATH": place.path], settings: [#""locale": "en-US""#])
        try await service.models(.useModel, [.string("en-US"), .string(MadeSherpaModels.parakeet)])
        let sentences = Array(WordErrorRate.exactSentences.prefix(2))

        let (memo, lines) = try await recordAndSend(sentences, to: service)

        let finals = lines.filter { $0.kind == "final" && $0.text?.isEmpty == false }
        let revised = lines.filter { $0.kind == "revised" }
        #expect(!finals.isEmpty && revised.count == finals.count, "\(lines)")
        // The made model writes its sentence once a decoding: once for an utterance decoded whole, once a piece for
        // one decoded ahead at its pauses.
        #expect(
            revised.allSatisfy { line in
                let text = line.text ?? ""
                return !text.isEmpty && text.replacingOccurrences(of: MadeSherpaModels.sentence, with: "").allSatisfy(\.isWhitespace)
            }, "\(revised)")
        #expect(try await service.property(.status, of: memo) == .string("done"))
        let text = try await service.memo(.getTranscript, of: memo).argument(0, as: String.self)
        #expect(text == revised.compactMap(\.text).joined(separator: " "), "\(text)")
        #expect(try await service.property(.model, of: memo) == .string(MadeSherpaModels.parakeet))
    }

    /// A model that makes sherpa-onnx abort costs the accurate pass its utterances (Vosk's text stands, the memo ends),
    /// a truncated one fails its memo's transcription with a reason; notulad goes on, and the next decoding works.
    @Test func brokenModelsFailTheirDecodingsAloneAndTheNextOneWorks() async throws {
        let place = try englishModelPlace()
        defer { try? FileManager.default.removeItem(at: place) }
        try MadeSherpaModels.link("broken/parakeet-runtime-failure", as: MadeSherpaModels.parakeet, in: place)
        try MadeSherpaModels.link("broken/truncated", as: MadeSherpaModels.europeanParakeet, in: place)
        try MadeSherpaModels.link("moonshine", as: MadeSherpaModels.moonshine, in: place)
        let service = try await ServiceUnderTest.start(environment: ["VOSK_MODEL_PATH": place.path], settings: [#""locale": "en-US""#])
        try await service.models(.useModel, [.string("en-US"), .string(MadeSherpaModels.parakeet)])

        let (memo, lines) = try await recordAndSend(Array(WordErrorRate.exactSentences.prefix(2)), to: service)

        #expect(try await service.property(.status, of: memo) == .string("done"))
        #expect(try await service.property(.model, of: memo) == .string("vosk-model-small-en-us-0.15"))
        #expect(!lines.contains { $0.kind == "revised" })
        let voskText = lines.filter { $0.kind == "final" }.compactMap(\.text).filter { !$0.isEmpty }.joined(separator: " ")
        #expect(try await service.memo(.getTranscript, of: memo).argument(0, as: String.self) == voskText && !voskText.isEmpty)
        #expect(service.log.contains("killed by signal 6") && service.log.contains("left utterance 1 to Vosk"), "\(service.log)")

        #expect(try await transcribe(memo, with: MadeSherpaModels.europeanParakeet, in: service) == "failed")
        let failure = try await service.property(.failure, of: memo)
        #expect("\(failure)".contains("sherpa-onnx could not load the parakeet model"), "\(failure)")
        #expect(try await service.memo(.getTranscript, of: memo).argument(0, as: String.self) == voskText, "the old text stays")

        #expect(try await transcribe(memo, with: MadeSherpaModels.moonshine, in: service) == "done")
        let text = try await service.memo(.getTranscript, of: memo).argument(0, as: String.self)
        #expect(text.hasPrefix(MadeSherpaModels.sentence), "\(text)")
        #expect(service.stop() == 0, "notulad was alive to the end and stops cleanly")
    }

    /// Dutch, which the Vosk catalog lacks: its pick brings Parakeet v3 from sherpa-onnx's catalog (a made model in the
    /// archive's form), which then writes its memos alone. A notulad without sherpa-onnx's library offers none of it.
    @Test func aLocaleVoskLacksBringsParakeetWhichWritesItsMemos() async throws {
        let bench = try Workbench()
        let name = MadeSherpaModels.europeanParakeet
        let shop = try DutchParakeetShop(selling: "parakeet", in: bench)
        let environment = shop.environment

        // Without the library beside it, nor named: the catalog is not offered, and Dutch is no locale.
        let alone = bench.folder.appendingPathComponent("alone")
        try FileManager.default.createDirectory(at: alone, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: binaryDirectory.appendingPathComponent("notulad"), to: alone.appendingPathComponent("notulad"))
        let without = try await ServiceUnderTest.start(
            environment: environment.merging(["NOTULA_SHERPA_LIBRARY": ""]) { $1 }, executable: alone.appendingPathComponent("notulad"))
        try await without.models(.refresh)
        let refused = await #expect(throws: BusError.self) { try await setLocale(without, "nl-NL") }
        #expect(refused?.message.contains("nl-NL") == true, "\(refused?.message ?? "")")
        let offered = try [DBusStruct<String, String, String, UInt64, Bool>](dbusValue: try await without.modelsProperty(.availableModels))
        #expect(offered.allSatisfy { $0.fields.2 != "parakeet" }, "\(offered)")
        _ = without.stop()

        let service = try await ServiceUnderTest.start(environment: environment)
        try await service.models(.refresh)
        let downloads = try await service.signals(of: NotulaBus.modelsPath, interface: NotulaBus.modelsInterface)
        try await setLocale(service, "nl-NL")
        for await message in downloads where ["DownloadFinished", "DownloadFailed"].contains(message.member ?? "") {
            #expect(message.member == "DownloadFinished", "\(message)")
            break
        }
        #expect(service.modelsFolderEntries == [name])

        let signals = try await service.recorderSignals()
        try await service.recorder(.start)
        try await service.sink?.play(try speech("De patiënt heeft lichte pijn op de borst.", voice: "nl"))
        let memo = try await service.recorder(.process).argument(0, as: ObjectPath.self)
        for await signal in signals where signal.isSignal(.processed) || signal.isSignal(.failed) { break }
        #expect(try await service.property(.status, of: memo) == .string("done"))
        #expect(try await service.memo(.getTranscript, of: memo).argument(0, as: String.self) == MadeSherpaModels.sentence)
        #expect(try await service.property(.model, of: memo) == .string(name))
    }

    /// An archive sherpa-onnx cannot load (a truncated encoder, as a broken download checked by its digest alone would
    /// be) is refused after it is unpacked, saying why, and leaves nothing behind.
    @Test func anArchiveSherpaCannotLoadIsNotInstalled() async throws {
        let bench = try Workbench()
        let shop = try DutchParakeetShop(selling: "broken/truncated", in: bench)
        let service = try await ServiceUnderTest.start(environment: shop.environment)
        try await service.models(.refresh)
        let downloads = try await service.signals(of: NotulaBus.modelsPath, interface: NotulaBus.modelsInterface)
        try await setLocale(service, "nl-NL")
        for await message in downloads where ["DownloadFinished", "DownloadFailed"].contains(message.member ?? "") {
            #expect(message.member == "DownloadFailed", "\(message)")
            let reason = (try? message.argument(1, as: String.self)) ?? ""
            #expect(reason.contains("could not load the parakeet model"), "\(reason)")
            break
        }
        #expect(service.modelsFolderEntries.isEmpty)
    }
}

/// sherpa-onnx's catalog served from loopback with one archive, a made model packed as sherpa-onnx packs Parakeet v3,
/// and a Vosk catalog that lacks Dutch.
private struct DutchParakeetShop {
    let server: TestHTTPServer
    let environment: [String: String]

    /// - Parameter made: the made model's folder under `.build/sherpa`: `parakeet`, `broken/truncated`.
    init(selling made: String, in bench: Workbench) throws {
        let name = MadeSherpaModels.europeanParakeet
        let archive = bench.folder.appendingPathComponent("\(name).tar.bz2")
        let folder = MadeSherpaModels.folder.appendingPathComponent(made)
        try output(
            of: "tar", "-C", folder.deletingLastPathComponent().path, "-cjf", archive.path, "--transform",
            "s,^\(folder.lastPathComponent),\(name),", folder.lastPathComponent)
        server = try TestHTTPServer(routes: ["/\(name).tar.bz2": .file(archive.path)])
        let size = try #require(try FileManager.default.attributesOfItem(atPath: archive.path)[.size] as? Int)
        let sherpaCatalog = bench.folder.appendingPathComponent("sherpa-models.json")
        try JSONSerialization.data(withJSONObject: [[
            "lang": "nl,de", "name": name, "url": server.url(for: "/\(name).tar.bz2"), "size": size, "type": "parakeet",
            "obsolete": "false", "sha256": String(try output(of: "sha256sum", archive.path).prefix(64)),
        ]]).write(to: sherpaCatalog)
        let voskCatalog = bench.folder.appendingPathComponent("vosk-models.json")
        try Data(
            #"[{"lang": "ko", "lang_text": "Korean", "name": "vosk-model-small-ko-0.22", "obsolete": "false", "type": "small", "url": "http://127.0.0.1:9/ko.zip", "size": 10, "size_text": "0MiB", "md5": "00000000000000000000000000000000", "version": "0.22"}]"#
                .utf8
        ).write(to: voskCatalog)
        environment = ["NOTULA_MODEL_CATALOG": voskCatalog.path, "NOTULA_SHERPA_CATALOG": sherpaCatalog.path]
    }
}
