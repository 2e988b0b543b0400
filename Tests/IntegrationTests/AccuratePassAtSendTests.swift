import DBus
import Foundation
import NotulaContract
import NotulaTestSupport
import TestPasses
import Testing

/// Send right after the last sentence: what the accurate pass has left is awaited, within its 3 s. It times Whisper
/// against the clock, so it has the machine to itself (the timing pass): beside the desktop pass the 20 s utterance
/// took 2.3 s instead of 1.5, and the last one was left to Vosk.
@Suite("The accurate pass's text at Send", .timeLimit(.minutes(5)), .tags(.timing))
struct AccuratePassAtSendTests {
    @Test func englishSpokenWithKoreanUtteranceEndsIsWrittenByTinyEnUtteranceByUtterance() async throws {
        let place = try englishModelPlace()
        defer { try? FileManager.default.removeItem(at: place) }
        let service = try await ServiceUnderTest.start(environment: ["VOSK_MODEL_PATH": place.path], settings: [#""locale": "en-US""#])
        try await service.models(.useModel, [.string("en-US"), .string("ggml-tiny.en")])
        #expect(try [String: String](dbusValue: try await service.modelsProperty(.accurateModels)) == ["en-US": "ggml-tiny.en"])
        let sentences = Array(WordErrorRate.exactSentences.prefix(2) + WordErrorRate.ownSentences.prefix(4))
        let (memo, lines) = try await recordAndSend(sentences, to: service)

        // A revised line per final utterance with words, in order, each before the recording's end.
        let finals = lines.filter { $0.kind == "final" && !($0.words ?? []).isEmpty }
        let revised = lines.filter { $0.kind == "revised" }
        #expect(revised.map(\.utterance) == Array(0..<finals.count).map(Optional.some), "\(lines.map(\.kind))")
        #expect(revised.allSatisfy { $0.model == "ggml-tiny.en" })
        #expect(lines.last?.kind == "end")
        let text = try await service.memo(.getTranscript, of: memo).argument(0, as: String.self)
        // The quiet before Send is an utterance Whisper hears nothing in.
        #expect(text == revised.compactMap(\.text).filter { !$0.isEmpty }.joined(separator: " "), "the memo keeps Whisper's text")
        let said = sentences.flatMap(WordErrorRate.words)
        let wrong = WordErrorRate.errors(WordErrorRate.words(text), against: said)
        #expect(Double(wrong) / Double(said.count) < 0.10, "\(wrong) of \(said.count) words wrong: \(text)")
        #expect(text.contains(sentences[0]), "a sentence the probe found exact is exact: \(text)")
        #expect(try await service.property(.model, of: memo) == .string("ggml-tiny.en"))
        // Send came right after the last sentence: what was left to decode took the fitted window, as the journal says.
        #expect(service.log.contains("after Send) written again"), "\(service.log)")
    }
}
