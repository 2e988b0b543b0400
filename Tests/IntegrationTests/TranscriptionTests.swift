import DBus
import Foundation
import NotulaContract
import NotulaTestSupport
import TestPasses
import Testing

/// The Korean model the tests use, as Vosk's own tools would find it: a folder named after
/// the model in a place of `VOSK_MODEL_PATH`.
func modelPlace() throws -> URL {
    let model = try #require(ProcessInfo.processInfo.environment["NOTULA_TEST_MODEL"], "NOTULA_TEST_MODEL names the Korean model")
    let place = FileManager.default.temporaryDirectory.appendingPathComponent("notula-models-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: place, withIntermediateDirectories: true)
    try FileManager.default.createSymbolicLink(
        at: place.appendingPathComponent("vosk-model-small-ko-0.22"), withDestinationURL: URL(fileURLWithPath: model))
    return place
}

/// Only the Korean Vosk model, under its own name, and tiny.en: en-US is served by Whisper alone.
func whisperAlonePlace() throws -> URL {
    let place = try modelPlace()
    try FileManager.default.createSymbolicLink(
        at: place.appendingPathComponent("ggml-tiny.en.bin"),
        withDestinationURL: packageRoot.appendingPathComponent(".build/whisper/ggml-tiny.en.bin"))
    return place
}

extension ServiceUnderTest {
    /// The utterances of `memo` the accurate pass had not written at Send, once it has written them all, as
    /// `changes` (the memo's signals, followed from before Send returned) tell.
    func untilWritten(_ memo: ObjectPath, following changes: AsyncStream<Message>) async throws -> [UInt32] {
        let pending = try [UInt32](dbusValue: try await property(.pendingUtterances, of: memo))
        guard !pending.isEmpty else { return [] }
        for await message in changes {
            let now = try? message.argument(1, as: [String: Variant].self)["PendingUtterances"].map { try [UInt32](dbusValue: $0.value) }
            if now?.isEmpty == true { break }
        }
        return pending
    }
}

/// Records `speech` (or nothing), sends it, and returns the memo once its transcription ended.
private func recordAndSend(_ service: ServiceUnderTest, playing speech: String?) async throws -> ObjectPath {
    let signals = try await service.recorderSignals()
    try await service.recorder(.start)
    try await service.sink?.play(try speech ?? silence(seconds: 1.5))
    let memo = try await service.recorder(.process).argument(0, as: ObjectPath.self)
    for await message in signals where message.isSignal(.processed) || message.isSignal(.failed) { break }
    return memo
}

@Suite("Memos get their text", .serialized, .tags(.speech))
struct TranscriptionTests {
    @Test func speechBecomesTheMemosTextInThePickedLocale() async throws {
        let place = try modelPlace()
        defer { try? FileManager.default.removeItem(at: place) }
        let service = try await ServiceUnderTest.start(environment: ["VOSK_MODEL_PATH": place.path])

        let refused = await #expect(throws: BusError.self) { try await setLocale(service, "xx-YY") }
        #expect(refused?.name == .invalidArgs)
        #expect(refused?.message.contains("ko-KR") == true)
        try await setLocale(service, "ko_kr")
        #expect(try await service.property(.locale) == .string("ko-KR"))
        let settings = service.home.appendingPathComponent("config/notula/settings.json")
        #expect(try String(contentsOf: settings, encoding: .utf8).contains("\"ko-KR\""))
        #expect((try FileManager.default.attributesOfItem(atPath: settings.path)[.posixPermissions] as? Int) == 0o600)

        let memo = try await recordAndSend(service, playing: try speech("annyeong haseyo, notula imnida"))
        #expect(try await service.property(.status, of: memo) == .string("done"))
        #expect(try await service.property(.locale, of: memo) == .string("ko-KR"))
        let reply = try await service.memo(.getTranscript, of: memo)
        let text = try reply.argument(0, as: String.self)
        let words = try reply.argument(1, as: [DBusStruct<Double, Double, String, Double>].self)
        #expect(!text.isEmpty)
        #expect(!words.isEmpty)
        #expect(words.map(\.fields.2).joined(separator: " ") == text)
        #expect(words.allSatisfy { $0.fields.0 < $0.fields.1 && (0...1).contains($0.fields.3) })

        let xml = try await service.call(memo, "org.freedesktop.DBus.Introspectable", "Introspect").argument(0, as: String.self)
        let contract = try String(contentsOf: packageRoot.appendingPathComponent("dbus/\(NotulaBus.memoInterface).xml"), encoding: .utf8)
        let interface = NotulaBus.memoInterface.rawValue
        #expect(try members(of: interface, in: xml) == (try members(of: interface, in: contract)))
    }

    /// replacements.tsv, written while notulad runs: the next memo's written text — what Export writes and search
    /// finds — has the user's replacements; the recognised words stay as they were; a bad line is told by its number.
    @Test func theUsersReplacementsWriteTheNextMemo() async throws {
        let place = try modelPlace()
        defer { try? FileManager.default.removeItem(at: place) }
        let service = try await ServiceUnderTest.start(environment: ["VOSK_MODEL_PATH": place.path], settings: [#""locale": "ko-KR""#])
        let spoken = try speech("병원에 왔습니다", voice: "ko")
        let first = try await recordAndSend(service, playing: spoken)
        let heard = try await service.memo(.getTranscript, of: first).argument(0, as: String.self).split(separator: " ").map(String.init)
        #expect(
            try await service.memo(.export, of: first, [.string("txt")]).argument(0, as: String.self) == heard.joined(separator: " ") + "\n"
        )

        // Each word heard the first time gets a written form of its own.
        let table = Dictionary(heard.enumerated().map { ($1, "W\($0)") }, uniquingKeysWith: { first, _ in first })
        let file = table.map { "\($0)\t\($1)" }.joined(separator: "\n") + "\nno tab on this line\n"
        try file.write(to: service.home.appendingPathComponent("config/notula/replacements.tsv"), atomically: true, encoding: .utf8)
        let second = try await recordAndSend(service, playing: spoken)
        let words = try await service.memo(.getTranscript, of: second).argument(0, as: String.self).split(separator: " ").map(String.init)
        let written = words.map { table[$0] ?? $0 }.joined(separator: " ")
        #expect(words.contains { table[$0] != nil }, "the same speech gives some of the same words: \(heard) \(words)")
        #expect(try await service.memo(.export, of: second, [.string("txt")]).argument(0, as: String.self) == written + "\n")
        let replaced = try #require(words.compactMap { table[$0] }.first)
        let hits = try await service.library(.search, [.string(replaced), .uint32(10)]).argument(
            0, as: [DBusStruct<ObjectPath, String>].self)
        #expect(hits.map(\.fields.0) == [second], "search finds the written text")
        #expect(
            service.log.contains("replacements.tsv: line \(table.count + 1): not a spoken phrase, a tab and the written text"),
            "\(service.log)")
    }

    @Test func silenceGivesAnEmptyTranscript() async throws {
        let place = try modelPlace()
        defer { try? FileManager.default.removeItem(at: place) }
        let service = try await ServiceUnderTest.start(environment: ["VOSK_MODEL_PATH": place.path, "LANG": "ko_KR.UTF-8"])
        #expect(try await service.property(.locale) == .string("ko-KR"))
        let memo = try await recordAndSend(service, playing: nil)
        let reply = try await service.memo(.getTranscript, of: memo)
        #expect(reply.body == [.string(""), .array(element: "(ddsd)", [])])
        guard case .string(let title) = try await service.property(.title, of: memo) else { throw MissingOutput() }
        #expect(title.hasPrefix("Memo "), "no words, no title from them: \(title)")
    }

    @Test func aMemoIsTitledFromItsFirstWordsAndARenamedOneKeepsItsName() async throws {
        let place = try modelPlace()
        defer { try? FileManager.default.removeItem(at: place) }
        let service = try await ServiceUnderTest.start(environment: ["VOSK_MODEL_PATH": place.path], settings: [#""locale": "ko-KR""#])
        let first = try await recordAndSend(service, playing: try speech("annyeong haseyo, notula imnida"))
        let written = try await service.memo(.export, of: first, [.string("txt")]).argument(0, as: String.self)
        guard case .string(let title) = try await service.property(.title, of: first) else { throw MissingOutput() }
        #expect(title.unicodeScalars.contains { $0.value >= 0xAC00 }, "a Hangul title: \(title)")
        let words = written.split(whereSeparator: \.isWhitespace)
        #expect(title == words.prefix(6).joined(separator: " ") + (words.count > 6 ? "…" : ""), "from [\(written)]")

        // Named by the user while it records: the name stays.
        let signals = try await service.recorderSignals()
        try await service.recorder(.start)
        let second = try #require(try await service.library(.list, [.uint32(0), .uint32(1)]).argument(0, as: [ObjectPath].self).first)
        try await service.call(
            second, "org.freedesktop.DBus.Properties", "Set",
            [.string(NotulaBus.memoInterface.rawValue), .string("Title"), .variant(.string("Ward round, bed 4"))])
        try await service.sink?.play(try speech("annyeong haseyo"))
        _ = try await service.recorder(.process)
        for await message in signals where message.isSignal(.processed) { break }
        #expect(try await service.property(.title, of: second) == .string("Ward round, bed 4"))
    }

    @Test func withoutTheEngineRecordingStillWorksAndSendSaysWhatToInstall() async throws {
        let place = try modelPlace()
        let alone = FileManager.default.temporaryDirectory.appendingPathComponent("notula-alone-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: alone, withIntermediateDirectories: true)
        defer {
            try? FileManager.default.removeItem(at: place)
            try? FileManager.default.removeItem(at: alone)
        }
        // A notulad with no libvosk beside it, none named, none the loader knows.
        try FileManager.default.copyItem(at: binaryDirectory.appendingPathComponent("notulad"), to: alone.appendingPathComponent("notulad"))
        let service = try await ServiceUnderTest.start(
            environment: ["VOSK_MODEL_PATH": place.path, "LANG": "ko_KR.UTF-8", "NOTULA_VOSK_LIBRARY": ""],
            executable: alone.appendingPathComponent("notulad"))
        let signals = try await service.recorderSignals()
        try await service.recorder(.start)
        let memo = try await service.recorder(.process).argument(0, as: ObjectPath.self)
        var failure: (String, String)?
        for await message in signals where message.isSignal(.failed) {
            failure = (try message.argument(0), try message.argument(1))
            break
        }
        #expect(failure?.0 == NotulaErrorName.engineUnavailable.rawValue.rawValue)
        #expect(failure?.1.contains("pip install vosk") == true)
        #expect(try await service.property(.status, of: memo) == .string("failed"))
        #expect(try await service.property(.state) == .string("idle"))
        let audio = try await service.property(.audioFile, of: memo)
        guard case .string(let path) = audio else { Issue.record("no audio file"); return }
        #expect(FileManager.default.fileExists(atPath: path), "the recording is kept")
    }
}
