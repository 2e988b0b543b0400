import DBus
import Foundation
import NotulaContract
import NotulaTestSupport
import Recording
import TestPasses
import Testing

@Suite("Each utterance written again by Whisper while the next is spoken", .serialized, .timeLimit(.minutes(5)), .tags(.modelLoading))
struct AccuratePassTests {}

extension AccuratePassTests {
    @Test func aModelThatCrashesTheEngineLeavesVoskTextAndTheNextDecodingWorks() async throws {
        let place = try englishModelPlace()
        defer { try? FileManager.default.removeItem(at: place) }
        // All of it in 32-bit floats: it loads, then ggml asserts in the encoder.
        try FileManager.default.createSymbolicLink(
            at: place.appendingPathComponent("ggml-base.en.bin"),
            withDestinationURL: packageRoot.appendingPathComponent(".build/whisper/ggml-tiny.en-f32.bin"))
        let service = try await ServiceUnderTest.start(environment: ["VOSK_MODEL_PATH": place.path], settings: [#""locale": "en-US""#])
        try await service.models(.useModel, [.string("en-US"), .string("ggml-base.en")])
        let sentences = Array(WordErrorRate.exactSentences.prefix(2))
        let (memo, lines) = try await recordAndSend(sentences, to: service)

        #expect(try await service.property(.status, of: memo) == .string("done"))
        #expect(try await service.property(.model, of: memo) == .string("vosk-model-small-en-us-0.15"))
        let voskText = lines.filter { $0.kind == "final" }.compactMap(\.text).filter { !$0.isEmpty }.joined(separator: " ")
        #expect(try await service.memo(.getTranscript, of: memo).argument(0, as: String.self) == voskText && !voskText.isEmpty)
        #expect(!lines.contains { $0.kind == "revised" })
        #expect(service.log.contains("killed by signal 6") && service.log.contains("left utterance 1 to Vosk"), "\(service.log)")

        // The helper starts again for the next decoding: the same memo, written by a model that loads.
        let changes = try await service.signals(of: memo, interface: NotulaBus.memoInterface)
        try await service.memo(.transcribe, of: memo, [.string("en-US"), .string("ggml-tiny.en")])
        for await message in changes {
            let status = try? message.argument(1, as: [String: Variant].self)["Status"]?.get(String.self)
            if status == "done" || status == "failed" { break }
        }
        let text = try await service.memo(.getTranscript, of: memo).argument(0, as: String.self)
        #expect(text.contains(sentences[0]), "\(text)")
    }
}

extension AccuratePassTests {
    @Test func aWhisperThatFallsBehindLeavesVoskTextAtSendAndWritesTheMemoAgainOnce() async throws {
        let place = try englishModelPlace()
        defer { try? FileManager.default.removeItem(at: place) }
        // Each utterance 4 s slower to decode than it takes to say: the queue falls behind.
        let service = try await ServiceUnderTest.start(
            environment: ["VOSK_MODEL_PATH": place.path, "NOTULA_WHISPER_TEST_DELAY": "4"], settings: [#""locale": "en-US""#])
        try await service.models(.useModel, [.string("en-US"), .string("ggml-tiny.en")])
        let sentences = Array(WordErrorRate.exactSentences.prefix(3))
        let spoken = try sentences.map { try speech($0, voice: "en-us") }
        let signals = try await service.recorderSignals()
        try await service.recorder(.start)
        for file in spoken { try await service.sink?.play(file) }
        let memo = try await service.recorder(.process).argument(0, as: ObjectPath.self)
        let changes = try await service.signals(of: memo, interface: NotulaBus.memoInterface)
        for await signal in signals where signal.isSignal(.processed) || signal.isSignal(.failed) { break }

        // Processed without waiting for the queue: some utterances still Vosk's.
        let pending = try [UInt32](dbusValue: try await service.property(.pendingUtterances, of: memo))
        #expect(!pending.isEmpty, "Whisper had caught up: \(service.log)")
        #expect(try await service.property(.status, of: memo) == .string("done"))
        let atSend = try await service.memo(.getTranscript, of: memo).argument(0, as: String.self)
        // Where Whisper had written some utterances already, the memo says which are still Vosk's: the pending ones.
        let byUtteranceAtSend = try await utteranceModels(of: memo, in: service)
        #expect(
            byUtteranceAtSend.isEmpty || byUtteranceAtSend.filter { $0.model != "ggml-tiny.en" }.count == pending.count,
            "\(byUtteranceAtSend) with \(pending) pending")

        // Then once more, when Whisper has written them all: PendingUtterances empty (the change before it is Send's).
        var told: [[UInt32]] = []
        for await message in changes {
            guard let changed = try? message.argument(1, as: [String: Variant].self), let now = changed["PendingUtterances"],
                let pendingNow = try? [UInt32](dbusValue: now.value)
            else { continue }
            told.append(pendingNow)
            if pendingNow.isEmpty { break }
        }
        #expect(told == [pending, []] || told == [[]], "\(told)")
        let text = try await service.memo(.getTranscript, of: memo).argument(0, as: String.self)
        #expect(text != atSend)
        let said = sentences.flatMap(WordErrorRate.words)
        let wrong = WordErrorRate.errors(WordErrorRate.words(text), against: said)
        #expect(Double(wrong) / Double(said.count) < 0.10, "\(wrong) of \(said.count) words wrong: \(text)")
        #expect(try await service.property(.model, of: memo) == .string("ggml-tiny.en"))
        #expect(try await utteranceModels(of: memo, in: service).isEmpty, "Whisper wrote it all: Model says so alone")
        // Each utterance decoded once, whatever was waited for at Send.
        let decoded = service.log.split(separator: "\n").compactMap { line in
            line.range(of: "Utterance ").map { line[$0.upperBound...].prefix { $0.isNumber } }
        }
        #expect(!decoded.isEmpty && Set(decoded).count == decoded.count, "\(decoded)")
    }
}

extension AccuratePassTests {
    @Test func withoutAVoskModelWhisperFollowsTheRecordingAloneUtteranceByUtterance() async throws {
        let place = try whisperAlonePlace()
        defer { try? FileManager.default.removeItem(at: place) }
        let service = try await ServiceUnderTest.start(environment: ["VOSK_MODEL_PATH": place.path], settings: [#""locale": "en-US""#])
        #expect(try [String](dbusValue: try await service.modelsProperty(.supportedLocales)).contains("en-US"))
        // The sentences tiny.en writes exactly, each alone.
        let sentences = WordErrorRate.exactSentences
        let spoken = try sentences.map { try speech($0, voice: "en-us") }
        let pause = try silence(seconds: 1)
        let reader = try await LiveTextReader.watching(service)
        defer { close(reader.descriptor) }
        let watch = try RunningCommand(binaryDirectory.appendingPathComponent("notula").path, ["watch"], environment: service.environment)
        try await poll(within: .seconds(10), until: { service.log.components(separatedBy: "follows the live text").count == 3 }) {
            MissingOutput()
        }
        let signals = try await service.recorderSignals()

        try await service.recorder(.start)
        // A second of quiet after each sentence: where an utterance ends without Vosk.
        for file in spoken { for played in [file, pause] { try await service.sink?.play(played) } }
        let memo = try await service.recorder(.process).argument(0, as: ObjectPath.self)
        let changes = try await service.signals(of: memo, interface: NotulaBus.memoInterface)
        for await signal in signals where signal.isSignal(.processed) || signal.isSignal(.failed) { break }
        let lines = await reader.linesUntilEnd()
        // On a loaded machine the last utterance may still be decoding 3 s after Send: the memo says so, and has it later.
        let pending = try await service.untilWritten(memo, following: changes)

        #expect(!lines.contains { $0.kind == "partial" || $0.kind == "final" }, "\(lines.map(\.kind))")
        let revised = lines.filter { $0.kind == "revised" }
        #expect(revised.count + pending.count >= sentences.count, "an utterance a sentence: \(lines)")
        let text = try await service.memo(.getTranscript, of: memo).argument(0, as: String.self)
        let written = revised.compactMap(\.text).filter { !$0.isEmpty }
        #expect(text.hasPrefix(written.joined(separator: " ")) && (!pending.isEmpty || text == written.joined(separator: " ")))
        #expect(try written.map { _ in try watch.nextLine() } == written.map { "» " + $0 }, "notula watch shows Whisper's lines")
        #expect(watch.interrupt() == 0)
        let said = sentences.flatMap(WordErrorRate.words)
        let wrong = WordErrorRate.errors(WordErrorRate.words(text), against: said)
        #expect(Double(wrong) / Double(said.count) < 0.10, "\(wrong) of \(said.count) words wrong: \(text)")
        #expect(sentences.allSatisfy(text.contains), "each as the probe wrote it: \(text)")
        #expect(try await service.property(.model, of: memo) == .string("ggml-tiny.en"))
    }
}

/// A memo's model per utterance, as its JSON export gives it.
private func utteranceModels(of memo: ObjectPath, in service: ServiceUnderTest) async throws -> [UtteranceModel] {
    struct Document: Decodable { var utteranceModels: [UtteranceModel] }
    let json = try await service.memo(.export, of: memo, [.string("json")]).argument(0, as: String.self)
    return try JSONDecoder().decode(Document.self, from: Data(json.utf8)).utteranceModels
}

extension AccuratePassTests {
    @Test func aMemoRecoveredWhereOnlyWhisperServesItsLocaleIsWrittenByWhisper() async throws {
        let place = try whisperAlonePlace()
        defer { try? FileManager.default.removeItem(at: place) }
        let settings = [#""locale": "en-US""#]
        let service = try await ServiceUnderTest.start(environment: ["VOSK_MODEL_PATH": place.path], settings: settings)
        let sentence = WordErrorRate.exactSentences[0]
        try await service.recorder(.start)
        try await service.sink?.play(try speech(sentence, voice: "en-us"))
        let memo = try #require(try await service.library(.list, [.uint32(0), .uint32(1)]).argument(0, as: [ObjectPath].self).first)
        #expect(service.stop(with: SIGKILL) == SIGKILL)

        let again = try await ServiceUnderTest.start(environment: ["VOSK_MODEL_PATH": place.path], settings: settings, home: service.home)
        // A deadline against a hang, not a speed.
        try await again.waitForLog("Recovered memo \(memo.rawValue.split(separator: "/").last!) transcribed", within: .seconds(120))
        #expect(try await again.property(.status, of: memo) == .string("recovered"))
        #expect(try await again.memo(.getTranscript, of: memo).argument(0, as: String.self) == sentence, "\(again.log)")
        #expect(try await again.property(.model, of: memo) == .string("ggml-tiny.en"))
    }
}
