import DBus
import Foundation
import Glibc
import NotulaContract
import NotulaTestSupport
import Testing

@Suite("Nothing lost: a killed service's recording is recovered at the next start", .serialized)
struct RecoveryTests {
    @Test("kill -9 mid-recording: after a restart the memo is recovered and its WAV holds all but about a second")
    func killedMidRecording() async throws {
        let service = try await ServiceUnderTest.start()
        let sink = try #require(service.sink)
        let words = try speech("Notula keeps every word of this clinical note even when it is killed")
        let started = ContinuousClock.now
        try await service.recorder(.start)
        let listed = try await service.library(.list, [.uint32(0), .uint32(1)])
        let memo = try #require(try listed.argument(0, as: [ObjectPath].self).first)
        try await sink.play(words)
        try await sink.play(words)
        guard case .double(let recorded) = try await service.property(.elapsed) else { throw MissingInterface(name: "Elapsed") }
        #expect(service.stop(with: SIGKILL) == SIGKILL)
        let lived = (ContinuousClock.now - started) / .seconds(1)

        let again = try await ServiceUnderTest.start(home: service.home)
        #expect(try await again.property(.status, of: memo) == .string("recovered"))
        guard case .string(let file) = try await again.property(.audioFile, of: memo) else {
            throw MissingInterface(name: "AudioFile")
        }
        let wav = try WAVReader(path: file)
        #expect(wav.declaredDataBytes == wav.samples.count * 2 && wav.riffSize == wav.fileSize - 8)
        print("Recorded \(recorded) s shortly before the kill; the recovered WAV holds \(wav.duration) s")
        // At most about a second lost of what was recorded when asked; and no more than the process had time to record.
        #expect(wav.duration >= recorded - 1.25)
        #expect(wav.duration <= lived)
        #expect(try await again.property(.duration, of: memo) == .double(wav.duration))
        #expect(wav.windowLevels.filter { $0 > -40 }.count >= 20, "the recovered audio is not what was played")
        try await again.waitForLog("Recovered memo")
    }

    @Test(
        "kill -9 mid-recording, then the WAV removed or its header garbage: at the next start the memo is failed, says why, and Delete works",
        arguments: [LostAudio.removed, .garbageHeader])
    func unrepairableAudioEndsFailed(_ lost: LostAudio) async throws {
        let service = try await ServiceUnderTest.start()
        try await service.recorder(.start)
        let listed = try await service.library(.list, [.uint32(0), .uint32(1)])
        let memo = try #require(try listed.argument(0, as: [ObjectPath].self).first)
        guard case .string(let file) = try await service.property(.audioFile, of: memo) else {
            throw MissingInterface(name: "AudioFile")
        }
        #expect(service.stop(with: SIGKILL) == SIGKILL)
        switch lost {
        case .removed: try FileManager.default.removeItem(atPath: file)
        case .garbageHeader: try Data(repeating: 0x5A, count: 64_000).write(to: URL(fileURLWithPath: file))
        }

        let again = try await ServiceUnderTest.start(home: service.home)
        #expect(try await again.property(.status, of: memo) == .string("failed"))
        let why = await #expect(throws: BusError.self) { try await again.memo(.getTranscript, of: memo) }
        let expected = lost == .removed ? "is gone" : "is not a recording Notula wrote"
        #expect(why?.message.contains("Notula stopped while this memo was recorded") == true, "\(why?.message ?? "")")
        #expect(why?.message.contains(expected) == true, "\(why?.message ?? "")")
        if lost == .removed {
            let unplayable = await #expect(throws: BusError.self) { try await again.memo(.play, of: memo) }
            #expect(unplayable?.message == "The audio of memo \(memo.rawValue.split(separator: "/").last!) is gone: \(file)")
        }
        _ = try await again.memo(.delete, of: memo)
        #expect(try await again.property(.count) == .uint32(0))
        #expect(!FileManager.default.fileExists(atPath: file))
    }

    enum LostAudio: CustomTestStringConvertible {
        case removed, garbageHeader
        var testDescription: String { self == .removed ? "WAV removed" : "WAV header garbage" }
    }

    @Test("Audio without a memo is reported at start and kept")
    func strayAudioIsKept() async throws {
        let service = try await ServiceUnderTest.start()
        _ = try await service.recordMemo()
        #expect(service.stop() == 0)
        let stray = service.recordingsFolder.appendingPathComponent("stray.wav")
        try Data("RIFF".utf8).write(to: stray)
        let again = try await ServiceUnderTest.start(home: service.home)
        try await again.waitForLog("stray.wav belongs to no memo; kept as it is")
        #expect(FileManager.default.fileExists(atPath: stray.path))
    }
}
