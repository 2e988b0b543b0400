import DBus
import Foundation
import Glibc
import NotulaContract
import NotulaTestSupport
import Testing

@Suite("Playing memos through PulseAudio", .serialized)
struct PlaybackTests {
    /// A service whose playback goes to a null sink of the test's own, with one memo of speech.
    private func serviceWithSpokenMemo(speaker: NullSink) async throws -> (ServiceUnderTest, ObjectPath) {
        let service = try await ServiceUnderTest.start(environment: ["PULSE_SINK": speaker.name])
        let sink = try #require(service.sink)
        let signals = try await service.recorderSignals()
        try await service.recorder(.start)
        try await sink.play(try speech("Playback of a memo goes to the speakers"))
        let memo = try await service.recorder(.process).argument(0, as: ObjectPath.self)
        try await service.untilProcessed(signals)
        return (service, memo)
    }

    /// The next value of Playing announced in `changes`.
    private func nextPlaying(_ changes: inout AsyncStream<Message>.Iterator) async throws -> ObjectPath? {
        while let message = await changes.next() {
            if let changed = try? message.argument(1, as: [String: Variant].self), let playing = changed["Playing"] {
                return try playing.get(ObjectPath.self)
            }
        }
        return nil
    }

    @Test("Play sends the memo's audio to the sink; Playing names it, then goes back to /")
    func playsToTheSink() async throws {
        let speaker = try NullSink()
        let (service, memo) = try await serviceWithSpokenMemo(speaker: speaker)
        let heard = FileManager.default.temporaryDirectory.appendingPathComponent("notula-heard-\(UUID().uuidString).raw")
        defer { try? FileManager.default.removeItem(at: heard) }
        _ = FileManager.default.createFile(atPath: heard.path, contents: nil)
        let listener = Process()
        listener.executableURL = URL(fileURLWithPath: "/usr/bin/parec")
        listener.arguments = ["--device=\(speaker.monitor)", "--format=s16le", "--rate=16000", "--channels=1", "--latency-msec=20"]
        listener.environment = ProcessInfo.processInfo.environment
        listener.standardOutput = try FileHandle(forWritingTo: heard)
        try listener.run()
        defer {
            if listener.isRunning {
                kill(listener.processIdentifier, SIGKILL)
                listener.waitUntilExit()
            }
        }

        let changes = try await service.signals(of: NotulaBus.libraryPath, interface: NotulaBus.libraryInterface)
        var iterator = changes.makeAsyncIterator()
        #expect(
            try await service.property(.playing) == .objectPath(.root))
        _ = try await service.memo(.play, of: memo)
        #expect(try await nextPlaying(&iterator) == memo)
        #expect(try await nextPlaying(&iterator) == .root)
        // parec does not end on SIGTERM while its stream is connected; what it wrote is on disk either way.
        kill(listener.processIdentifier, SIGKILL)
        listener.waitUntilExit()

        let bytes = try Data(contentsOf: heard)
        let samples = bytes.withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }
        let loud = samples.filter { abs(Int($0)) > 1000 }.count
        #expect(loud > 8000, "only \(loud) loud samples of \(samples.count) reached the sink")
    }

    @Test("StopPlayback ends it before its end, and Playing goes back to /")
    func stops() async throws {
        let speaker = try NullSink()
        let (service, memo) = try await serviceWithSpokenMemo(speaker: speaker)
        let changes = try await service.signals(of: NotulaBus.libraryPath, interface: NotulaBus.libraryInterface)
        var iterator = changes.makeAsyncIterator()
        _ = try await service.memo(.play, of: memo)
        #expect(try await nextPlaying(&iterator) == memo)
        let asked = ContinuousClock.now
        _ = try await service.memo(.stopPlayback, of: memo)
        #expect(try await nextPlaying(&iterator) == .root)
        #expect(ContinuousClock.now - asked < .seconds(1))
    }

    @Test("notula memos play returns when the memo has played, and Ctrl-C stops it before its end")
    func commandWaitsForTheEnd() async throws {
        let speaker = try NullSink()
        let (service, memo) = try await serviceWithSpokenMemo(speaker: speaker)
        let changes = try await service.signals(of: NotulaBus.libraryPath, interface: NotulaBus.libraryInterface)
        var iterator = changes.makeAsyncIterator()
        func play() throws -> Process {
            let command = Process()
            command.executableURL = binaryDirectory.appendingPathComponent("notula")
            command.arguments = ["memos", "play", String(memo.rawValue.split(separator: "/").last!)]
            command.environment = service.environment
            try command.run()
            return command
        }

        let toTheEnd = try play()
        #expect(try await nextPlaying(&iterator) == memo)
        #expect(toTheEnd.isRunning, "the command returned while its memo was playing")
        #expect(try await nextPlaying(&iterator) == .root)
        toTheEnd.waitUntilExit()
        #expect(toTheEnd.terminationStatus == 0)

        let interrupted = try play()
        #expect(try await nextPlaying(&iterator) == memo)
        let asked = ContinuousClock.now
        kill(interrupted.processIdentifier, SIGINT)
        #expect(try await nextPlaying(&iterator) == .root)
        #expect(ContinuousClock.now - asked < .seconds(1), "Ctrl-C did not stop the playback")
        interrupted.waitUntilExit()
        #expect(interrupted.terminationStatus == 0)
    }
}
