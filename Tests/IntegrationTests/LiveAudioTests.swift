import DBus
import Foundation
import NotulaContract
import NotulaTestSupport
import Recording
import TestPasses
import Testing

/// `OpenAudio`: the recording's audio while it is captured, on a pipe of the client's own, in the form it chose.
@Suite("The audio for other programs", .serialized, .timeLimit(.minutes(3)), .tags(.capture))
struct LiveAudioTests {
    private func open(_ form: String, _ service: ServiceUnderTest) async throws -> AudioPipeReader {
        AudioPipeReader(try await pipe(form, service))
    }

    private func pipe(_ form: String, _ service: ServiceUnderTest) async throws -> FileDescriptor {
        let reply = try await service.recorder(.openAudio, [.string(form)])
        guard case .unixFD(let received)? = reply.body.first else { throw MissingOutput() }
        return FileDescriptor(owning: dup(received.rawValue))
    }

    /// Sends the recording; once it is idle again (no model here: the memo keeps its audio, without text), every
    /// sample went to the readers.
    private func send(_ service: ServiceUnderTest) async throws -> ObjectPath {
        let memo = try await service.recorder(.process).argument(0, as: ObjectPath.self)
        try await service.waitForState("idle")
        return memo
    }

    /// The samples of a memo's WAV file, after its 44-byte header.
    private func wavData(of memo: ObjectPath, _ service: ServiceUnderTest) async throws -> [UInt8] {
        guard case .string(let file) = try await service.property(.audioFile, of: memo) else { throw MissingOutput() }
        return Array(try Data(contentsOf: URL(fileURLWithPath: file)).dropFirst(44))
    }

    @Test func eachFormGetsTheMemosSamplesAndNothingWhilePaused() async throws {
        let service = try await ServiceUnderTest.start()
        var s16 = try await open("s16le", service)
        var f32 = try await open("f32le", service)
        var vad = try await open("vad", service)
        let (first, unheard, gap, second) = (
            try speech("one two three"), try speech("not in the memo"), try silence(seconds: 1.5), try speech("four five")
        )

        try await service.recorder(.start)
        try await service.sink?.play(first)
        try await service.recorder(.pause)
        try await service.sink?.play(unheard)
        try await service.recorder(.resume)
        try await service.sink?.play(gap)
        try await service.sink?.play(second)
        let memo = try await send(service)
        let data = try await wavData(of: memo, service)
        let samples = AudioPipeReader.samples(data)
        #expect(samples.count > 16_000 * 3, "the speech was recorded")

        #expect(await s16.bytes(data.count) == data, "s16le is the file's samples, paused time left out")
        let floats = await f32.bytes(data.count * 2)
        let decoded = stride(from: 0, to: floats.count, by: 4).map { offset in
            Float(bitPattern: floats[offset..<offset + 4].reversed().reduce(UInt32(0)) { $0 << 8 | UInt32($1) })
        }
        #expect(decoded == samples.map { Float($0) / 32_768 })

        // A discarded recording ends with the frame of no samples.
        try await service.recorder(.start)
        try await service.recorder(.discard)
        let stretches = await vad.framesUntilDiscard()
        #expect(stretches.count >= 2, "the quiet between the phrases ends a stretch: \(stretches.map(\.start))")
        for stretch in stretches {
            let at = Int(stretch.start)
            #expect(at + stretch.samples.count <= samples.count && Array(samples[at..<at + stretch.samples.count]) == stretch.samples)
        }
        let voiced = stretches.map(\.samples.count).reduce(0, +)
        #expect(voiced < samples.count - 16_000, "a second of quiet trimmed: \(voiced) of \(samples.count) samples")
        if Self.sileroInstalled {
            #expect(service.log.contains("Silero's voice detector hears speech end"), "Silero found them: \(service.log)")
        } else {
            print("Silero is not beside the test binaries (scripts/install-sherpa BIN --test): the level found the stretches")
        }
        for reader in [s16, f32, vad] { close(reader.descriptor) }
    }

    private static var sileroInstalled: Bool {
        FileManager.default.fileExists(atPath: binaryDirectory.appendingPathComponent("sherpa/silero_vad.onnx").path)
    }

    /// A level set in the settings asks for the level meter: no detector is started, and the stretches still come.
    @Test func aLevelSetInTheSettingsFindsTheStretchesByTheLevel() async throws {
        let service = try await ServiceUnderTest.start(settings: [#""vadSilenceThreshold": -40"#])
        var vad = try await open("vad", service)
        try await service.recorder(.start)
        try await service.sink?.play(try speech("one two three"))
        try await service.sink?.play(try silence(seconds: 1.5))
        try await service.sink?.play(try speech("four five"))
        _ = try await send(service)
        try await service.recorder(.start)
        try await service.recorder(.discard)

        #expect(await vad.framesUntilDiscard().count >= 2)
        #expect(!service.log.contains("Silero"), "\(service.log)")
        close(vad.descriptor)
    }

    @Test func aReaderThatStopsReadingIsCutOffAndTheRecordingAndTheOthersGoOn() async throws {
        let service = try await ServiceUnderTest.start()
        let asleep = try await pipe("f32le", service)
        var awake = try await open("s16le", service)
        // 5 s of f32le is 313 KiB: more than a reader may leave unread.
        let tone = FileManager.default.temporaryDirectory.appendingPathComponent("notula-tone-\(UUID().uuidString).wav").path
        defer { try? FileManager.default.removeItem(atPath: tone) }
        try output(of: "sox", "-n", "-r", "16000", "-c", "1", "-b", "16", tone, "synth", "5", "sine", "440")

        try await service.recorder(.start)
        try await service.sink?.play(tone)
        let memo = try await send(service)
        let data = try await wavData(of: memo, service)
        #expect(data.count > 16_000 * 2 * 5, "the whole tone was recorded")

        // Read only now: what its pipe kept, then the end, as notulad closed it.
        var kept: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while case let count = read(asleep.rawValue, &chunk, chunk.count), count > 0 { kept += chunk[0..<count] }
        // Cut off at the first piece of audio (0.1 s at most) that did not fit in the 256 KiB it may leave unread.
        #expect(kept.count <= 256 * 1024 && kept.count > 192 * 1024, "\(kept.count) bytes kept")
        #expect(service.log.contains("cut off"), "\(service.log)")
        // 5 s of s16le fits in what the other may leave unread: it reads only now, and has it all.
        #expect(await awake.bytes(data.count) == data)
        close(awake.descriptor)
    }

    @Test func anUnknownFormIsRefusedNamingTheOnesThereAre() async throws {
        let service = try await ServiceUnderTest.start(.named("nowhere"))
        let refused = await #expect(throws: BusError.self) { try await service.recorder(.openAudio, [.string("mp3")]) }
        #expect(refused?.name == .invalidArgs)
        #expect(refused?.message.contains("s16le, f32le or vad") == true, "\(String(describing: refused))")
    }

    /// `notula listen`: the audio on standard output, for a program that takes it; Ctrl-C ends it with 0.
    @Test func notulaListenWritesTheSamplesToStandardOutput() async throws {
        let service = try await ServiceUnderTest.start()
        let written = FileManager.default.temporaryDirectory.appendingPathComponent("notula-listen-\(UUID().uuidString).raw").path
        defer { try? FileManager.default.removeItem(atPath: written) }
        let notula = binaryDirectory.appendingPathComponent("notula").path
        let listening = try RunningCommand(
            "/bin/sh", ["-c", "exec \"$0\" listen --format s16le > \"$1\"", notula, written], environment: service.environment)
        try await poll(within: .seconds(10), until: { service.log.contains("follows the live audio") }) { MissingOutput() }
        try await service.recorder(.start)
        try await service.sink?.play(try speech("written to standard output"))
        let memo = try await send(service)
        let data = try await wavData(of: memo, service)
        try await poll(within: .seconds(10), until: { (try? Data(contentsOf: URL(fileURLWithPath: written)).count) == data.count }) {
            MissingOutput()
        }
        #expect(listening.interrupt() == 0, "Ctrl-C is how a listen ends")
        #expect(Array(try Data(contentsOf: URL(fileURLWithPath: written))) == data)
        let unknown = try run(notula, ["listen", "--format", "mp3"])
        #expect(unknown.status == 2, "a form that does not exist is a bad command line")
        #expect(unknown.errorOutput.contains("s16le, f32le or vad"), "\(unknown.errorOutput)")
    }
}
