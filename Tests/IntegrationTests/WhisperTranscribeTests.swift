import DBus
import Foundation
import NotulaContract
import NotulaTestSupport
import TestPasses
import Testing

/// The test sentences, one that tiny.en writes exactly first.
private let sentences: [String] = {
    let (exact, own) = (WordErrorRate.exactSentences, WordErrorRate.ownSentences)
    return [exact[0], own[0], exact[1], own[2], exact[2], own[3], own[1], own[4]]
}()

@Suite("A memo transcribed again with a Whisper model", .serialized, .timeLimit(.minutes(5)), .tags(.modelLoading))
struct WhisperTranscribeTests {
    @Test func englishSpeechRecordedInKoreanIsWrittenInEnglishByTinyEn() async throws {
        let place = try modelPlace()
        defer { try? FileManager.default.removeItem(at: place) }
        let service = try await ServiceUnderTest.start(environment: ["VOSK_MODEL_PATH": place.path], settings: [#""locale": "ko-KR""#])
        // Put where Notula installs models, under whisper.cpp's own name for it.
        try FileManager.default.createDirectory(at: service.modelsFolder, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(
            at: service.modelsFolder.appendingPathComponent("ggml-tiny.en.bin"),
            withDestinationURL: packageRoot.appendingPathComponent(".build/whisper/ggml-tiny.en.bin"))
        let available = try [DBusStruct<String, String, String, UInt64, Bool>](
            dbusValue: try await service.modelsProperty(.availableModels))
        #expect(available.contains { $0.fields.0 == "en-US" && $0.fields.1 == "ggml-tiny.en" && $0.fields.2 == "whisper" && $0.fields.4 })
        #expect(try [String: String](dbusValue: try await service.modelsProperty(.modelsInUse)) == ["ko-KR": "vosk-model-small-ko-0.22"])

        // The sentences with a pause between them, said into the Korean recorder: the wrong language.
        let spoken = try sentences.map { try speech($0, voice: "en-us") }
        let signals = try await service.recorderSignals()
        try await service.recorder(.start)
        for file in spoken { try await service.sink?.play(file) }
        let memo = try await service.recorder(.process).argument(0, as: ObjectPath.self)
        for await signal in signals where signal.isSignal(.processed) || signal.isSignal(.failed) { break }

        let changes = try await service.signals(of: memo, interface: NotulaBus.memoInterface)
        try await service.memo(.transcribe, of: memo, [.string("en-US"), .string("ggml-tiny.en")])
        for await message in changes {
            let status = try? message.argument(1, as: [String: Variant].self)["Status"]?.get(String.self)
            if status == "done" || status == "failed" { break }
        }
        let failure = try await service.property(.failure, of: memo)
        #expect(try await service.property(.status, of: memo) == .string("done"), "\(failure)")
        #expect(try await service.property(.model, of: memo) == .string("ggml-tiny.en"))
        #expect(try await service.property(.locale, of: memo) == .string("en-US"))
        let text = try await service.memo(.getTranscript, of: memo).argument(0, as: String.self)
        let said = sentences.flatMap(WordErrorRate.words)
        let wrong = WordErrorRate.errors(WordErrorRate.words(text), against: said)
        #expect(Double(wrong) / Double(said.count) < 0.10, "\(wrong) of \(said.count) words wrong: \(text)")
        #expect(text.contains(sentences[0]), "a sentence the probe found exact is exact: \(text)")
        #expect(service.log.contains("with ggml-tiny.en, in its helper process"), "the Whisper engine decodes it, in its helper")
    }
}
