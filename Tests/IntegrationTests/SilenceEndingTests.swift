import DBus
import Foundation
import NotulaContract
import NotulaTestSupport
import TestPasses
import Testing

/// `SilenceSeconds`: a recording that falls quiet after speech is sent by itself, once, with all that was said.
@Suite("A recording ends itself after silence", .serialized, .timeLimit(.minutes(3)), .tags(.modelLoading))
struct SilenceEndingTests {
    private static func set(_ service: ServiceUnderTest, silenceSeconds value: Value) async throws {
        try await service.call(
            NotulaBus.recorderPath, "org.freedesktop.DBus.Properties", "Set",
            [.string(NotulaBus.recorderInterface.rawValue), .string(NotulaBus.Recorder.Property.silenceSeconds.rawValue), .variant(value)])
    }

    @Test func speechThenThreeQuietSecondsSendsTheRecordingOnceWithTheWholeSpeech() async throws {
        let place = try modelPlace()
        defer { try? FileManager.default.removeItem(at: place) }
        let service = try await ServiceUnderTest.start(environment: ["VOSK_MODEL_PATH": place.path], settings: [#""locale": "ko-KR""#])
        #expect(try await service.property(.silenceSeconds) == .double(0), "off unless asked")
        try await Self.set(service, silenceSeconds: .double(2))
        let signals = try await service.recorderSignals()
        // Made before Start: under load, making them takes seconds the recording would hear as quiet.
        let spoken = try speech("annyeong haseyo, notula imnida")
        let quietBefore = try silence(seconds: 2.5)
        let quietAfter = try silence(seconds: 3)

        try await service.recorder(.start)
        // Quiet before any speech ends nothing: the user has not begun.
        try await service.sink?.play(quietBefore)
        try await service.sink?.play(spoken)
        try await service.sink?.play(quietAfter)

        var ended: [ObjectPath] = []
        var processed: ObjectPath?
        for await message in signals {
            if message.isSignal(.endedOnSilence) { ended.append(try message.argument(0, as: ObjectPath.self)) }
            if message.isSignal(.processed) {
                processed = try message.argument(0, as: ObjectPath.self)
                break
            }
        }
        let memo = try #require(processed)
        #expect(ended == [memo], "EndedOnSilence once, before Processed, for the same memo")
        #expect(try await service.property(.state) == .string("idle"))
        #expect(try await service.library(.list, [.uint32(0), .uint32(10)]).argument(0, as: [ObjectPath].self) == [memo])

        // All that was said: the memo's audio holds the speech and at least the two quiet seconds after it (how
        // much more depends on how soon the machine ran the send), and its text is what the reference decoder
        // makes of that audio.
        guard case .string(let audio) = try await service.property(.audioFile, of: memo) else {
            Issue.record("no audio file")
            return
        }
        let quietAtTheEnd = try trailingQuietSeconds(of: audio)
        #expect(quietAtTheEnd >= 1.9, "\(quietAtTheEnd) s of quiet after the speech")
        let model = try #require(ProcessInfo.processInfo.environment["NOTULA_TEST_MODEL"])
        let text = try await service.memo(.getTranscript, of: memo).argument(0, as: String.self)
        let reference = try await ReferenceTranscriber.transcribe(wavFile: audio, model: model).text
        #expect(!text.isEmpty && text == reference)
    }

    /// `notula dictate`: this recording is typed and ends on 2 quiet seconds; the settings, and the next
    /// recording, stay as they were.
    @Test func notulaDictateTypesThisRecordingAndEndsItOnSilenceAlone() async throws {
        let place = try modelPlace()
        defer { try? FileManager.default.removeItem(at: place) }
        // No session to type into: the failure to type is how the test sees that the text was to be typed.
        let service = try await ServiceUnderTest.start(
            environment: ["VOSK_MODEL_PATH": place.path, "DISPLAY": "", "WAYLAND_DISPLAY": "", "XDG_SESSION_TYPE": ""],
            settings: [#""locale": "ko-KR""#])
        for (output, seconds) in [("print", 2.0), ("memo", 601), ("memo", .nan)] {
            let refused = await #expect(throws: BusError.self) {
                try await service.recorder(.dictate, [.string(output), .double(seconds)])
            }
            #expect(refused?.name == .invalidArgs, "\(output) \(seconds)")
        }
        let notula = binaryDirectory.appendingPathComponent("notula").path
        let badLine = try run(notula, ["dictate", "--silence", "two"], environment: service.environment)
        #expect(badLine.status == 2 && badLine.errorOutput.contains("see notula --help"), "\(badLine)")
        #expect(try await service.property(.state) == .string("idle"), "nothing started")

        let signals = try await service.recorderSignals()
        let spoken = try speech("병원에 왔습니다", voice: "ko")
        let quiet = try silence(seconds: 3)
        let started = try run(notula, ["dictate"], environment: service.environment)
        #expect(started.status == 0, "\(started)")
        #expect(try await service.property(.state) == .string("recording"))
        try await service.sink?.play(spoken)
        try await service.sink?.play(quiet)
        var ended: [ObjectPath] = []
        var outcome: Message?
        for await message in signals {
            if message.isSignal(.endedOnSilence) { ended.append(try message.argument(0, as: ObjectPath.self)) }
            if message.isSignal(.failed) || message.isSignal(.delivered) {
                outcome = message
                break
            }
        }
        #expect(ended.count == 1, "sent by itself")
        #expect(try outcome?.argument(0, as: String.self) == NotulaErrorName.outputUnavailable.rawValue.rawValue, "to be typed")
        #expect(try await service.property(.output) == .string("memo"))
        #expect(try await service.property(.silenceSeconds) == .double(0))

        // The next recording is the settings' again: the same quiet ends nothing, and its text stays in the memo.
        let next = try await service.recorderSignals()
        try await service.recorder(.start)
        try await service.sink?.play(spoken)
        try await service.sink?.play(quiet)
        let memo = try await service.recorder(.process).argument(0, as: ObjectPath.self)
        for await message in next {
            #expect(!message.isSignal(.endedOnSilence) && !message.isSignal(.failed) && !message.isSignal(.delivered), "\(message)")
            if message.isSignal(.processed), try message.argument(0, as: ObjectPath.self) == memo { break }
        }
    }

    @Test func theSettingIsCheckedKeptAndAnnounced() async throws {
        let service = try await ServiceUnderTest.start()
        var changes = try await service.recorderSignals().makeAsyncIterator()
        for refused in [Value.double(-1), .double(601), .double(.nan), .string("2")] {
            let error = await #expect(throws: BusError.self) { try await Self.set(service, silenceSeconds: refused) }
            #expect(error?.name == .invalidArgs, "\(refused)")
        }
        try await Self.set(service, silenceSeconds: .double(2.5))
        let announced = try #require(await changes.next())
        #expect(try announced.argument(1, as: [String: Variant].self)["SilenceSeconds"]?.value == .double(2.5))
        let settings = try String(contentsOf: service.home.appendingPathComponent("config/notula/settings.json"), encoding: .utf8)
        #expect(settings.contains(#""silenceSeconds" : 2.5"#), "\(settings)")
        let home = service.home
        #expect(service.stop() == 0)
        let again = try await ServiceUnderTest.start(home: home)
        #expect(try await again.property(.silenceSeconds) == .double(2.5))
    }
}

/// How long a WAV file's audio stays below -50 dBFS at its end, as sox trims it.
private func trailingQuietSeconds(of file: String) throws -> Double {
    let trimmed = FileManager.default.temporaryDirectory.appendingPathComponent("notula-trimmed-\(UUID().uuidString).wav").path
    defer { try? FileManager.default.removeItem(atPath: trimmed) }
    try output(of: "sox", file, trimmed, "reverse", "silence", "1", "0.02", "-50d", "reverse")
    return try audioSeconds(of: file) - audioSeconds(of: trimmed)
}

/// The length of a WAV file's audio, as sox reads it.
private func audioSeconds(of file: String) throws -> Double {
    try #require(Double(try output(of: "soxi", "-D", file).trimmingCharacters(in: .whitespacesAndNewlines)))
}
