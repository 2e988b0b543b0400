import DBus
import Foundation
import NotulaContract
import NotulaTestSupport
import TestPasses
import Testing

/// The accurate pass against the clock: the text at Send within its 3 s, a discard that stops the helper within half
/// a second. It has the machine to itself (the timing pass): beside the desktop pass the 20 s utterance took 2.3 s
/// instead of 1.5 and the last one was left to Vosk, and beside the release build the helper decoded on past 0.5 s.
@Suite("The accurate pass against the clock", .serialized, .timeLimit(.minutes(5)), .tags(.timing))
struct AccuratePassTimingTests {
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
        #expect(Double(wrong) / Double(said.count) < 0.10, "\(wrong) of \(said.count) words wrong: \(text) LOG \(service.log.split(separator: "\n").filter { $0.contains("tterance") || $0.contains("ahead") })")
        #expect(text.contains(sentences[0]), "a sentence the probe found exact is exact: \(text)")
        #expect(try await service.property(.model, of: memo) == .string("ggml-tiny.en"))
        // Send came right after the last sentence: what was left to decode took the fitted window, as the journal says.
        #expect(service.log.contains("after Send) written again"), "\(service.log)")
    }

    @Test func discardingDuringADecodingStopsTheHelperWithinHalfASecondAndTheNextRecordingStartsAtOnce() async throws {
        let place = try englishModelPlace()
        defer { try? FileManager.default.removeItem(at: place) }
        let service = try await ServiceUnderTest.start(environment: ["VOSK_MODEL_PATH": place.path], settings: [#""locale": "en-US""#])
        try await service.models(.useModel, [.string("en-US"), .string("ggml-tiny.en")])
        // One long utterance: four sentences said without a pause, about 20 s to decode as one.
        let long = try speech(WordErrorRate.ownSentences.prefix(4).joined(separator: ", and "), voice: "en-us")
        let reader = try await LiveTextReader.watching(service)

        try await service.recorder(.start)
        try await service.sink?.play(long)
        for await line in reader.lines where line.kind == "final" && !(line.words ?? []).isEmpty { break }
        // Its decoding begins the moment Vosk ends it, in the helper started for it.
        try await service.waitForLog("Started the decoding helper")
        let helper = try #require(service.children(running: "--decoding-helper").first, "the helper runs: \(service.log)")
        try await service.recorder(.discard)
        try await service.recorder(.start)
        #expect(try await service.property(.state) == .string("recording"), "the next recording starts at once")

        try await Task.sleep(for: .milliseconds(500))
        let afterHalfASecond = cpuTicks(helper)
        try await Task.sleep(for: .milliseconds(500))
        #expect(cpuTicks(helper) == afterHalfASecond, "the helper still decodes: \(String(describing: afterHalfASecond))")
        try await service.recorder(.discard)
        close(reader.descriptor)
    }

    /// The CPU time a process has used, in clock ticks; nil once it is gone.
    private func cpuTicks(_ pid: Int32) -> Int? {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8) else { return nil }
        let fields = stat.split(separator: ")").last?.split(separator: " ") ?? []
        // utime and stime: the 14th and 15th fields, the 12th and 13th after the command.
        guard fields.count > 13, let user = Int(fields[11]), let system = Int(fields[12]) else { return nil }
        return user + system
    }
}
