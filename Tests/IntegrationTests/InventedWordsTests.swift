import DBus
import Foundation
import NotulaContract
import NotulaTestSupport
import TestPasses
import Testing

/// No words where none were said, through the real notulad with Whisper tiny.en writing each utterance Silero (or the
/// level meter) ends: en-US has no Vosk model here. `make bench` measures the same over 27 clips and every engine.
@Suite("No words where none were said", .serialized, .timeLimit(.minutes(5)), .tags(.modelLoading))
struct InventedWordsTests {
    /// Chords: alone, tiny.en writes them as a note — "(gentle music)" — and the Korean model as words.
    private let deskSounds: [[String]] = [["synth", "2", "pluck", "C4", "pluck", "E4", "pluck", "G4", "vol", "0.3", "repeat", "3"]]

    @Test func musicGivesAnEmptyMemoAndNothingWhenTranscribedAgain() async throws {
        let place = try whisperAlonePlace()
        defer { try? FileManager.default.removeItem(at: place) }
        let service = try await ServiceUnderTest.start(environment: ["VOSK_MODEL_PATH": place.path], settings: [#""locale": "en-US""#])
        let memo = try await record(try deskSounds.map(synthesized), in: service)
        #expect(try await service.property(.status, of: memo) == .string("done"))
        #expect(try await service.memo(.getTranscript, of: memo).argument(0, as: String.self) == "")

        let changes = try await service.signals(of: memo, interface: NotulaBus.memoInterface)
        try await service.memo(.transcribe, of: memo, [.string("en-US"), .string("ggml-tiny.en")])
        for await message in changes {
            let status = try? message.argument(1, as: [String: Variant].self)["Status"]?.get(String.self)
            if status == "done" || status == "failed" { break }
        }
        #expect(try await service.property(.status, of: memo) == .string("done"))
        #expect(try await service.memo(.getTranscript, of: memo).argument(0, as: String.self) == "", "the file decoded whole")
    }

    @Test func speechFollowedByLongRoomToneIsTheSpeechAndNothingAfter() async throws {
        let place = try whisperAlonePlace()
        defer { try? FileManager.default.removeItem(at: place) }
        let service = try await ServiceUnderTest.start(environment: ["VOSK_MODEL_PATH": place.path], settings: [#""locale": "en-US""#])
        let sentence = WordErrorRate.exactSentences[0]
        let roomTone = try synthesized(["synth", "10", "brownnoise", "vol", "0.02"])
        let memo = try await record([try speech(sentence, voice: "en-us"), roomTone], in: service)
        #expect(try await service.memo(.getTranscript, of: memo).argument(0, as: String.self) == sentence)
    }

    @Test(.enabled(if: sileroInstalled, "needs Silero beside the test binaries: scripts/install-sherpa BIN --test puts it there"))
    func theLiveModelsWordsWhereSileroHearsNoSpeechAreLeftOut() async throws {
        let place = try modelPlace()
        defer { try? FileManager.default.removeItem(at: place) }
        // Korean has the Vosk model alone: no accurate pass writes its words again.
        let service = try await ServiceUnderTest.start(environment: ["VOSK_MODEL_PATH": place.path], settings: [#""locale": "ko-KR""#])
        let quiet = try await record(try deskSounds.map(synthesized), in: service)
        #expect(try await service.memo(.getTranscript, of: quiet).argument(0, as: String.self) == "")
        #expect(service.log.contains("where Silero heard no speech left out"), "the Korean model wrote words over the music: \(service.log)")

        let said = try speech("안녕하세요, 환자는 오늘 아침 가슴 통증을 호소했습니다.", voice: "ko")
        let spoken = try #require(Double(try output(of: "soxi", "-D", said).trimmingCharacters(in: .whitespacesAndNewlines)))
        let memo = try await record([said, try synthesized(deskSounds[0])], in: service)
        let words = try [DBusStruct<Double, Double, String, Double>](
            dbusValue: try await service.memo(.getTranscript, of: memo).body[1])
        #expect(!words.isEmpty, "the words spoken are kept")
        #expect(words.allSatisfy { $0.fields.1 <= spoken + 0.5 }, "none after the speech: \(words.map(\.fields)), spoken \(spoken) s")
    }

    private static var sileroInstalled: Bool {
        FileManager.default.fileExists(atPath: binaryDirectory.appendingPathComponent("sherpa/silero_vad.onnx").path)
    }

    /// Plays `files` into a recording, sends it, and returns its memo once Whisper has written every utterance.
    private func record(_ files: [String], in service: ServiceUnderTest) async throws -> ObjectPath {
        let signals = try await service.recorderSignals()
        try await service.recorder(.start)
        for file in files { try await service.sink?.play(file) }
        let memo = try await service.recorder(.process).argument(0, as: ObjectPath.self)
        let changes = try await service.signals(of: memo, interface: NotulaBus.memoInterface)
        for await signal in signals where signal.isSignal(.processed) || signal.isSignal(.failed) { break }
        _ = try await service.untilWritten(memo, following: changes)
        return memo
    }
}
