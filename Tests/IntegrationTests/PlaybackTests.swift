import DBus
import Foundation
import Glibc
import NotulaContract
import NotulaTestSupport
import TestPasses
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

@Suite("Playing memos through PulseAudio", .serialized, .timeLimit(.minutes(3)), .tags(.timing))
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

    @Test("Pause is refused with nothing playing; a Seek while paused goes on from that second of the WAV at Resume")
    func pauseSeekResume() async throws {
        let speaker = try await NullSink()
        let (service, memo) = try await serviceWithSpokenMemo(speaker: speaker)
        let (wav, heard, changes) = try await hear(memo, in: service, on: speaker)
        var iterator = changes.makeAsyncIterator()
        let refused = await #expect(throws: BusError.self) { try await service.memo(.pause, of: memo) }
        #expect(refused?.name == .invalidState)

        _ = try await service.memo(.play, of: memo)
        #expect(try await nextPlaying(&iterator) == memo)
        _ = try await service.memo(.pause, of: memo)
        #expect(try await service.property(.playbackState) == .string("paused"))

        // Seconds past any file a peer may send: the end, and the service answers on.
        _ = try await service.memo(.seek, of: memo, [.double(1e30)])
        _ = try await service.memo(.seek, of: memo, [.double(1.0)])
        try await poll(within: .seconds(5), until: { try await position(of: memo, in: service) == 1.0 }) { MissingOutput() }
        _ = try await service.memo(.resume, of: memo)
        #expect(try await service.property(.playbackState) == .string("playing"))
        // Pause and Resume were announced with the memo still Playing; the end names none.
        while let playing = try await nextPlaying(&iterator), playing != .root {}

        // What the speakers played after the resume is the WAV from its second second.
        #expect(contains(try heard.samples()[...], tenth(after: 1.0, of: wav)), "the WAV from 1.0 s never reached the speakers")
        #expect(try await service.property(.playbackState) == .string("stopped"))
    }

    @Test("Pause answers once the sound has stopped: Position holds from its reply on, and Resume goes on from there")
    func pauseHoldsWhereItAnswers() async throws {
        let speaker = try await NullSink()
        let (service, memo) = try await serviceWithSpokenMemo(speaker: speaker)
        let (wav, heard, changes) = try await hear(memo, in: service, on: speaker)
        var iterator = changes.makeAsyncIterator()
        _ = try await service.memo(.play, of: memo)
        #expect(try await nextPlaying(&iterator) == memo)
        // Into the speech, so that what the pause cuts off is loud.
        try await poll(within: .seconds(5), until: { try await position(of: memo, in: service) >= 1.0 }) { MissingOutput() }

        _ = try await service.memo(.pause, of: memo)
        let atOnce = try await position(of: memo, in: service)
        let answered = try heard.samples().count
        // Half a second of the speakers after the reply: silent past one fragment (what the monitor had not yet
        // handed parec), and the position where the reply left it.
        try await heard.waitUntilHeard(samples: answered + 8_000)
        let later = try await position(of: memo, in: service)
        #expect(abs(later - atOnce) < Self.fragmentSeconds, "Position \(atOnce) s at Pause's reply, \(later) s half a second later")
        let afterReply = try heard.samples()[(answered + Self.monitorLagSamples)..<(answered + 8_000)]
        #expect(afterReply.allSatisfy { abs(Int($0)) < 100 }, "sound after Pause answered")

        _ = try await service.memo(.resume, of: memo)
        while let playing = try await nextPlaying(&iterator), playing != .root {}
        let fromHeld = tenth(after: atOnce, of: wav)
        #expect(fromHeld.contains { abs(Int($0)) > 1000 }, "the memo is silent at \(atOnce) s: nothing to tell a resume by")
        #expect(contains(try heard.samples()[answered...], fromHeld), "the speakers did not go on from \(atOnce) s")
    }

    private static let samplesPerSecond = 16_000
    /// PulseAudio's default fragment, 25 ms: how far apart two readings of one held position may be.
    private static let fragmentSeconds = 0.025
    /// Two fragments, the monitor's and parec's (20 ms latency asked): sound of before the reply that may still be
    /// written after it.
    private static let monitorLagSamples = 2 * samplesPerSecond * 25 / 1000

    /// The samples of `memo`'s audio file, what `speaker` plays from now on, and the Library's signals.
    private func hear(_ memo: ObjectPath, in service: ServiceUnderTest, on speaker: NullSink) async throws -> (
        [Int16], SinkRecording, AsyncStream<Message>
    ) {
        guard case .string(let file) = try await service.property(.audioFile, of: memo) else { throw MissingOutput() }
        let changes = try await service.signals(of: NotulaBus.libraryPath, interface: NotulaBus.libraryInterface)
        return (try WAVReader(path: file).samples, try SinkRecording(speaker), changes)
    }

    /// The 100 ms of `wav` from 10 ms past `seconds`: the first sample a stream plays after a flush may come out as
    /// silence.
    private func tenth(after seconds: Double, of wav: [Int16]) -> [Int16] {
        let start = Int(seconds * Double(Self.samplesPerSecond)) + Self.samplesPerSecond / 100
        return Array(wav[start..<(start + Self.samplesPerSecond / 10)])
    }

    /// Whether `segment` was played, sample for sample, in `played`.
    private func contains(_ played: ArraySlice<Int16>, _ segment: [Int16]) -> Bool {
        played.indices.dropLast(segment.count).contains { start in
            segment.indices.allSatisfy { played[start + $0] == segment[$0] }
        }
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
