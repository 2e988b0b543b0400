import DBus
import Foundation
import NotulaTestSupport
import Testing

/// The cues (`sounds`), from the freedesktop sound theme installed here, played on the sink the service's user hears —
/// here the very sink it records from the monitor of, as a loopback would: what the recording must never hold.
@Suite("Sounds that say it heard you, never in the recording", .serialized, .timeLimit(.minutes(3)))
struct CueTests {
    private static let theme = "/usr/share"

    private func start(hearing speakers: NullSink) async throws -> ServiceUnderTest {
        try #require(
            FileManager.default.fileExists(atPath: Self.theme + "/sounds/freedesktop/stereo/device-added.oga"),
            "sound-theme-freedesktop is not installed: make test-deps installs it")
        return try await ServiceUnderTest.start(
            .named(speakers.monitor), environment: ["PULSE_SINK": speakers.name, "XDG_DATA_DIRS": Self.theme])
    }

    @Test func theListeningCueEndsBeforeTheRecordingBegins() async throws {
        let speakers = try await NullSink()
        let service = try await start(hearing: speakers)
        let cue = await speakers.startListening(louderThan: 2000)
        try await service.recorder(.start)
        try await cue.value
        try await speakers.play(try silence(seconds: 0.6))
        let memo = try await service.recorder(.process).argument(0, as: ObjectPath.self)
        try await service.waitForState("idle")

        guard case .string(let file) = try await service.property(.audioFile, of: memo) else { throw MissingOutput() }
        let samples = try WAVReader(path: file).samples
        let firstPart = samples.prefix(16_000 * 3 / 10)
        #expect(firstPart.count == 4800, "at least 300 ms recorded")
        let loudest = firstPart.map { Int($0).magnitude }.max() ?? 0
        print("The recording's first 300 ms peak at \(loudest) of 32767, with the cue played into its source's sink")
        #expect(loudest < 100)
    }

    @Test func aPauseAndTheEndAreHeard() async throws {
        let speakers = try await NullSink()
        let service = try await start(hearing: speakers)
        try await service.recorder(.start)
        let pauseCue = await speakers.startListening(louderThan: 2000)
        try await service.recorder(.pause)
        try await pauseCue.value
        let endCue = await speakers.startListening(louderThan: 2000)
        try await service.recorder(.process)
        try await endCue.value
        #expect(!service.log.contains("Cannot play"))
    }
}
