import DBus
import Foundation
import Glibc
import NotulaContract
import NotulaTestSupport
import Testing

/// A service whose playback goes to a null sink of the test's own, with one memo of speech.
func serviceWithSpokenMemo(speaker: NullSink, settings: [String] = [], on bus: PrivateBus? = nil) async throws -> (
    ServiceUnderTest, ObjectPath
) {
    let service = try await ServiceUnderTest.start(environment: ["PULSE_SINK": speaker.name], settings: settings, on: bus)
    let sink = try #require(service.sink)
    let signals = try await service.recorderSignals()
    try await service.recorder(.start)
    try await sink.play(try speech("Playback of a memo goes to the speakers"))
    let memo = try await service.recorder(.process).argument(0, as: ObjectPath.self)
    try await service.untilProcessed(signals)
    return (service, memo)
}

@Suite("Playing memos through PulseAudio", .serialized, .timeLimit(.minutes(3)))
struct PlaybackTests {
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
        let speaker = try await NullSink()
        let (service, memo) = try await serviceWithSpokenMemo(speaker: speaker)
        let heard = try SinkRecording(speaker)
        let changes = try await service.signals(of: NotulaBus.libraryPath, interface: NotulaBus.libraryInterface)
        var iterator = changes.makeAsyncIterator()
        #expect(
            try await service.property(.playing) == .objectPath(.root))
        _ = try await service.memo(.play, of: memo)
        #expect(try await nextPlaying(&iterator) == memo)
        #expect(try await nextPlaying(&iterator) == .root)
        let samples = try heard.samples()
        let loud = samples.filter { abs(Int($0)) > 1000 }.count
        #expect(loud > 8000, "only \(loud) loud samples of \(samples.count) reached the sink")
    }

    @Test("StopPlayback ends it before its end, and Playing goes back to /")
    func stops() async throws {
        let speaker = try await NullSink()
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
        let speaker = try await NullSink()
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

    @Test("Pause holds the playback and its Position, Seek goes on from that second of the WAV, Resume plays on")
    func pauseSeekResume() async throws {
        let speaker = try await NullSink()
        let (service, memo) = try await serviceWithSpokenMemo(speaker: speaker)
        guard case .string(let file) = try await service.property(.audioFile, of: memo) else { throw MissingOutput() }
        let wav = try WAVReader(path: file).samples
        let heard = try SinkRecording(speaker)
        let changes = try await service.signals(of: NotulaBus.libraryPath, interface: NotulaBus.libraryInterface)
        var iterator = changes.makeAsyncIterator()
        let refused = await #expect(throws: BusError.self) { try await service.memo(.pause, of: memo) }
        #expect(refused?.name == .invalidState)

        _ = try await service.memo(.play, of: memo)
        #expect(try await nextPlaying(&iterator) == memo)
        _ = try await service.memo(.pause, of: memo)
        #expect(try await service.property(.playbackState) == .string("paused"))
        // A quarter second for the hold to reach the speakers (Pause answers at once; the playback's thread holds
        // within 100 ms); then half a second of them: silent, and the position where it was.
        let settled = try heard.samples().count + 4_000
        try await heard.waitUntilHeard(samples: settled)
        let held = try await position(of: memo, in: service)
        try await heard.waitUntilHeard(samples: settled + 8_000)
        let whilePaused = try heard.samples()[settled..<(settled + 8_000)]
        #expect(whilePaused.allSatisfy { abs(Int($0)) < 100 }, "sound while paused")
        #expect(try await position(of: memo, in: service) == held)

        // Seconds past any file a peer may send: the end, and the service answers on.
        _ = try await service.memo(.seek, of: memo, [.double(1e30)])
        _ = try await service.memo(.seek, of: memo, [.double(1.0)])
        try await poll(within: .seconds(5), until: { try await position(of: memo, in: service) == 1.0 }) { MissingOutput() }
        _ = try await service.memo(.resume, of: memo)
        #expect(try await service.property(.playbackState) == .string("playing"))
        // Pause and Resume were announced with the memo still Playing; the end names none.
        while let playing = try await nextPlaying(&iterator), playing != .root {}

        // What the speakers played after the resume is the WAV from its second second: the 100 ms from 1.01 s, as the
        // first sample a stream plays after a flush may come out as silence.
        let fromOneSecond = Array(wav[16_160..<17_760])
        let played = try heard.samples()
        let found = played.indices.dropLast(fromOneSecond.count).contains { start in
            fromOneSecond.indices.allSatisfy { played[start + $0] == fromOneSecond[$0] }
        }
        #expect(found, "the WAV from 1.0 s never reached the speakers")
        #expect(try await service.property(.playbackState) == .string("stopped"))
    }

    @Test("notula memos play at a terminal: space pauses and resumes, → goes on 5 s, here past the end")
    func keysAtATerminal() async throws {
        let speaker = try await NullSink()
        let (service, memo) = try await serviceWithSpokenMemo(speaker: speaker)
        let changes = try await service.signals(of: NotulaBus.libraryPath, interface: NotulaBus.libraryInterface)
        var iterator = changes.makeAsyncIterator()
        // script gives the command a terminal, and passes what the test writes to it as keys.
        let command = Process()
        command.executableURL = URL(fileURLWithPath: "/usr/bin/script")
        let notula = binaryDirectory.appendingPathComponent("notula").path
        command.arguments = ["-qfec", "\(notula) memos play \(memo.rawValue.split(separator: "/").last!)", "/dev/null"]
        command.environment = service.environment
        let keys = Pipe()
        let screen = Pipe()
        command.standardInput = keys
        command.standardOutput = screen
        try command.run()
        defer {
            if command.isRunning {
                kill(command.processIdentifier, SIGKILL)
                command.waitUntilExit()
            }
        }

        #expect(try await nextPlaying(&iterator) == memo)
        keys.fileHandleForWriting.write(Data(" ".utf8))
        try await poll(within: .seconds(5), until: { try await service.property(.playbackState) == .string("paused") }) { MissingOutput() }
        keys.fileHandleForWriting.write(Data(" ".utf8))
        try await poll(within: .seconds(5), until: { try await service.property(.playbackState) == .string("playing") }) { MissingOutput() }
        let asked = ContinuousClock.now
        keys.fileHandleForWriting.write(Data([0x1b, 0x5b, 0x43]))
        while let playing = try await nextPlaying(&iterator), playing != .root {}
        #expect(ContinuousClock.now - asked < .seconds(2), "→ did not go past the end of a memo of a few seconds")
        command.waitUntilExit()
        #expect(command.terminationStatus == 0)
        let shown = String(decoding: screen.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(shown.contains("paused ") && shown.contains("(space: pause, ←/→: 5 s)"), "\(shown)")
    }

    private func position(of memo: ObjectPath, in service: ServiceUnderTest) async throws -> Double {
        guard case .double(let seconds) = try await service.property(.position, of: memo) else { throw MissingOutput() }
        return seconds
    }
}
