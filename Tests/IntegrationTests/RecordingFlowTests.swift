import DBus
import Foundation
import NotulaContract
import NotulaTestSupport
import TestPasses
import Testing

@Suite("Recording driven over the bus, with real PulseAudio", .serialized, .tags(.timing))
struct RecordingFlowTests {
    @Test func toggleToggleToggleProcessMakesTheWAV() async throws {
        let service = try await ServiceUnderTest.start()
        let sink = try #require(service.sink)
        let words = try speech("Notula records every word of this clinical note")
        let signals = try await service.recorderSignals()
        var events = signals.makeAsyncIterator()

        try await service.recorder(.toggle)
        #expect(try await service.property(.state) == .string("recording"))
        try await sink.play(words)
        try await service.recorder(.toggle)
        #expect(try await service.property(.state) == .string("paused"))
        #expect(try await service.property(.level) == .double(-160))
        try await service.recorder(.toggle)
        try await sink.play(words)
        let memo = try await service.recorder(.process).argument(0, as: ObjectPath.self)

        // Processing ends in Processed, or in Failed where no speech model is installed (the
        // transcription's own tests have one); either way the state returns to idle.
        var finalElapsed: Double?
        var states: [String] = []
        while states.last != "idle", let message = await events.next() {
            if let changed = try? message.argument(1, as: [String: Variant].self), let state = changed["State"] {
                states.append(try state.get(String.self))
                if states.last == "processing" { finalElapsed = try changed["Elapsed"]?.get(Double.self) }
            }
        }
        #expect(states == ["recording", "paused", "recording", "processing", "idle"])
        #expect(memo.rawValue.hasPrefix("/org/notula/Notula1/Memos/"))

        let file = try await service.property(.audioFile, of: memo)
        guard case .string(let path) = file else { Issue.record("AudioFile is \(file)"); return }
        let wav = try WAVReader(path: path)
        #expect(wav.sampleRate == 16000 && wav.channels == 1 && wav.bitsPerSample == 16)
        #expect(wav.declaredDataBytes == wav.samples.count * 2)
        let elapsed = try #require(finalElapsed)
        print("WAV \(wav.duration) s, final Elapsed \(elapsed) s")
        #expect(abs(wav.duration - elapsed) <= 0.1, "WAV \(wav.duration) s, Elapsed \(elapsed) s")
        #expect(try await service.property(.duration, of: memo) == .double(wav.duration))

        let levels = wav.windowLevels
        let loud = levels.filter { $0 > -40 }.count
        let silent = levels.filter { $0 == -160 }.count
        #expect(loud >= 20, "only \(loud) windows of 100 ms hold speech")
        #expect(silent >= 1, "no silent window: the file is noise, not what was played")

        let folder = try FileManager.default.attributesOfItem(atPath: service.recordingsFolder.path)
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        #expect((folder[.posixPermissions] as? Int) == 0o700)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
        #expect(path.hasPrefix(service.recordingsFolder.path))
        #expect(try await service.property(.state) == .string("idle"))
    }

    @Test func aThousandTogglesInFlightLeaveTheCaptureConsistent() async throws {
        let service = try await ServiceUnderTest.start()
        let signals = try await service.recorderSignals()
        let client = service.client
        let toggle = MethodCall(
            destination: NotulaBus.name, path: NotulaBus.recorderPath, interface: NotulaBus.recorderInterface,
            member: NotulaBus.Recorder.Method.toggle.rawValue)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<1000 { group.addTask { _ = try await client.call(toggle) } }
            try await group.waitForAll()
        }
        // Start, then 999 alternations: paused, with the capture corked.
        #expect(try await service.property(.state) == .string("paused"))
        #expect(try await service.property(.level) == .double(-160))
        let memo = try await service.recorder(.process).argument(0, as: ObjectPath.self)
        var finalElapsed: Double?
        for await message in signals {
            if let changed = try? message.argument(1, as: [String: Variant].self), changed["State"] == Variant("processing") {
                finalElapsed = try changed["Elapsed"]?.get(Double.self)
            }
            if let changed = try? message.argument(1, as: [String: Variant].self), changed["State"] == Variant("idle") { break }
        }
        guard case .string(let path) = try await service.property(.audioFile, of: memo) else {
            Issue.record("no audio file")
            return
        }
        let wav = try WAVReader(path: path)
        let elapsed = try #require(finalElapsed)
        #expect(abs(wav.duration - elapsed) <= 0.1, "WAV \(wav.duration) s, Elapsed \(elapsed) s")
    }

    @Test func discardDeletesTheAudio() async throws {
        let service = try await ServiceUnderTest.start()
        try await service.recorder(.start)
        try await service.recorder(.pause)
        try await service.recorder(.discard)
        #expect(try await service.property(.state) == .string("idle"))
        // Discard answers before the capture has closed; Start queues behind it, so once it has
        // answered the discarded file is gone.
        try await service.recorder(.start)
        let files = try FileManager.default.contentsOfDirectory(atPath: service.recordingsFolder.path)
        #expect(files.count == 1, "\(files)")
        try await service.recorder(.discard)
    }

    @Test func timerAnchorLetsAPanelCountByItself() async throws {
        let service = try await ServiceUnderTest.start()
        #expect(try await service.property(.timerAnchor) == .int64(0))
        try await service.recorder(.start)
        let anchor = try await service.runningTimerAnchor()
        guard case .double(let elapsed) = try await service.property(.elapsed) else { Issue.record("wrong type"); return }
        let panel = Double(monotonicMicroseconds() - anchor) / 1e6
        #expect(panel >= elapsed && panel - elapsed < 0.5, "panel shows \(panel) s, service \(elapsed) s")
        try await service.recorder(.pause)
        #expect(try await service.property(.timerAnchor) == .int64(0))
        try await service.recorder(.discard)
    }
}
