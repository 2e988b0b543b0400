import DBus
import Foundation
import NotulaContract
import NotulaTestSupport
import Speech
import TestPasses
import Testing

@Suite("Recordings are transcribed while they are captured", .serialized, .tags(.speech))
struct StreamingTranscriptionTests {
    /// The text decoded during a recording with a pause equals that of its final file decoded whole (by Vosk's
    /// own Python package, which the engine tests show decodes a file as ours does), word for word and timing for
    /// timing.
    @Test func theStreamedTextIsTheTextOfTheWholeFile() async throws {
        let place = try modelPlace()
        defer { try? FileManager.default.removeItem(at: place) }
        let service = try await ServiceUnderTest.start(environment: ["VOSK_MODEL_PATH": place.path, "LANG": "ko_KR.UTF-8"])
        let sink = try #require(service.sink)
        let signals = try await service.recorderSignals()

        try await service.recorder(.start)
        try await sink.play(try speech("annyeong haseyo"))
        try await service.recorder(.pause)
        try await sink.play(try speech("this is not recorded"))
        try await service.recorder(.resume)
        try await sink.play(try speech("notula imnida, gamsa hamnida"))
        let memo = try await service.recorder(.process).argument(0, as: ObjectPath.self)
        for await message in signals where message.isSignal(.processed) || message.isSignal(.failed) { break }

        #expect(service.log.contains("the text decoded while it was captured is complete"), "\(service.log)")
        let reply = try await service.memo(.getTranscript, of: memo)
        let streamed = try reply.argument(0, as: String.self)
        let streamedWords = try reply.argument(1, as: [DBusStruct<Double, Double, String, Double>].self).map(\.fields)
        #expect(!streamed.isEmpty)

        let file = try await service.property(.audioFile, of: memo)
        guard case .string(let path) = file else {
            Issue.record("no audio file")
            return
        }
        let whole = try await ReferenceTranscriber.transcribe(
            wavFile: path, model: try #require(ProcessInfo.processInfo.environment["NOTULA_TEST_MODEL"]))
        #expect(streamed == whole.text)
        #expect(streamedWords.map(\.2) == whole.words.map(\.word))
        #expect(streamedWords.map(\.0) == whole.words.map(\.start))
        #expect(streamedWords.map(\.1) == whole.words.map(\.end))
    }
}

extension StreamingTranscriptionTests {
    /// A recording split at the length limit (2 s here) is followed live part by part: each part's text is that
    /// of its own file decoded whole.
    @Test func eachPartOfASplitRecordingHasTheTextOfItsOwnFile() async throws {
        let place = try modelPlace()
        defer { try? FileManager.default.removeItem(at: place) }
        let service = try await ServiceUnderTest.start(
            environment: ["VOSK_MODEL_PATH": place.path, "LANG": "ko_KR.UTF-8"], settings: [#""longestMemoSeconds": 2"#])
        let sink = try #require(service.sink)
        let signals = try await service.recorderSignals()
        // Made before Start, so that a loaded machine does not add parts of quiet while espeak runs.
        let first = try speech("annyeong haseyo")
        let second = try speech("notula imnida, gamsa hamnida")

        try await service.recorder(.start)
        try await sink.play(first)
        try await sink.play(second)
        let last = try await service.recorder(.process).argument(0, as: ObjectPath.self)
        for await message in signals where message.isSignal(.processed) {
            if (try? message.argument(0, as: ObjectPath.self)) == last { break }
        }

        // Every part: on a loaded machine playing may start late, and the parts be more than the speech needs.
        let listed = try await service.library(.list, [.uint32(0), .uint32(1000)])
        let memos = try listed.argument(0, as: [ObjectPath].self)
        #expect(memos.count >= 2, "\(memos)")
        let followed = service.log.components(separatedBy: "the text decoded while it was captured is complete").count - 1
        #expect(followed == memos.count, "\(service.log)")
        let model = try #require(ProcessInfo.processInfo.environment["NOTULA_TEST_MODEL"])
        for memo in memos {
            #expect(try await service.property(.status, of: memo) == .string("done"))
            let streamed = try await service.memo(.getTranscript, of: memo).argument(0, as: String.self)
            guard case .string(let path) = try await service.property(.audioFile, of: memo) else {
                Issue.record("no audio file")
                continue
            }
            #expect(streamed == (try await ReferenceTranscriber.transcribe(wavFile: path, model: model)).text, "\(path)")
        }
    }
}

@Suite("The speech model is held while useful", .serialized, .tags(.speech))
struct ModelMemoryTests {
    /// The model loads when the locale is picked, is released after the idle time the settings give, and loads
    /// again at the next recording, whose audio is caught up: the text is still decoded while captured.
    @Test func anIdleModelIsReleasedAndReloadedAtTheNextRecording() async throws {
        let place = try modelPlace()
        defer { try? FileManager.default.removeItem(at: place) }
        let service = try await ServiceUnderTest.start(
            environment: ["VOSK_MODEL_PATH": place.path, "LANG": "ko_KR.UTF-8"], settings: [#""modelIdleSeconds": 6"#])
        let idle = service.residentBytes

        try await setLocale(service, "ko-KR")
        try await service.waitForLog("Loaded the ko-KR speech model")
        let loaded = service.residentBytes
        try await service.waitForLog("Released the ko-KR speech model")
        let released = service.residentBytes
        #expect(loaded - idle > 100_000_000, "the model takes memory: \(idle) → \(loaded)")
        #expect(released - idle < 40_000_000, "and gives it back: \(idle) → \(loaded) → \(released)")

        let signals = try await service.recorderSignals()
        try await service.recorder(.start)
        try await #require(service.sink).play(try speech("annyeong haseyo"))
        let memo = try await service.recorder(.process).argument(0, as: ObjectPath.self)
        for await message in signals where message.isSignal(.processed) || message.isSignal(.failed) { break }
        #expect(service.log.components(separatedBy: "Loaded the ko-KR speech model").count == 3)
        #expect(service.log.contains("the text decoded while it was captured is complete"))
        let text = try await service.memo(.getTranscript, of: memo).argument(0, as: String.self)
        #expect(!text.isEmpty)
    }
}
