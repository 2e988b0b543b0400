import DBus
import Foundation
import Glibc
import NotulaContract
import NotulaTestSupport
import TestPasses
import Testing

/// A memo discarded while its file is decoded: the decoding stops, and the next recording records.
/// Named to run with the speech suites (`make test`), as it decodes with the Korean model.
@Suite("A discard never delays the next recording", .serialized, .tags(.speech))
struct DiscardDuringTranscriptionTests {
    @Test("Discarding a memo while its 20-minute file is transcribed: the next Start opens the microphone at once and records")
    func discardDuringALongTranscription() async throws {
        let models = try modelPlace()
        let place = FileManager.default.temporaryDirectory.appendingPathComponent("notula-no-models-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: place, withIntermediateDirectories: true)
        let catalog = place.appendingPathComponent("catalog.json")
        try Data("[]".utf8).write(to: catalog)
        defer { [models, place].forEach { try? FileManager.default.removeItem(at: $0) } }
        let sound = try await PrivateSoundServer()
        let service = try await ServiceUnderTest.start(
            .named("mic.monitor"),
            environment: ["PULSE_SERVER": sound.address, "VOSK_MODEL_PATH": place.path, "NOTULA_MODEL_CATALOG": catalog.path],
            settings: [#""locale": "ko-KR""#])
        let signals = try await service.recorderSignals()

        // No model when it starts: the memo is transcribed from its file once sent, as one sent while its model
        // was still downloading is. Its file is made twenty minutes long, and the model appears.
        try await service.recorder(.start)
        try await service.waitForLog("is transcribed from its file once sent")
        let first = try await newestMemoFile(of: service)
        let long = place.appendingPathComponent("long.wav").path
        try output(of: "sox", "-n", "-r", "16000", "-c", "1", "-b", "16", long, "synth", "1200", "pinknoise", "vol", "0.3")
        #expect(rename(long, first) == 0)
        try FileManager.default.createSymbolicLink(
            at: place.appendingPathComponent("vosk-model-small-ko-0.22"),
            withDestinationURL: models.appendingPathComponent("vosk-model-small-ko-0.22"))
        try await service.recorder(.process)
        try await service.waitForLog("transcribing its file in ko-KR")
        try await service.recorder(.discard)

        let asked = ContinuousClock.now
        _ = try await service.client.call(
            MethodCall(
                destination: NotulaBus.name, path: NotulaBus.recorderPath, interface: NotulaBus.recorderInterface,
                member: NotulaBus.Recorder.Method.start.rawValue), timeout: .seconds(30))
        let answeredIn = ContinuousClock.now - asked
        print("Start answered \(answeredIn) after the discard")
        // Before, Start waited for the whole decoding: a minute on an idle machine.
        #expect(answeredIn < .seconds(10), "\(service.log)")
        // Once the model is loaded (seconds, not cancellable), the first block looks and stops.
        try await service.waitForLog("the transcription of its file stopped, as it was discarded")
        var streams: [String] = []
        try await poll(within: .seconds(5)) {
            streams = try sound.pactl("list", "source-outputs").components(separatedBy: "Source Output #")
                .filter { $0.contains("application.name = \"Notula\"") }
            return streams.count == 1 && streams[0].contains("Corked: no")
        } otherwise: {
            NoRecordStream(streams: streams)
        }

        try sound.play(try speech("annyeong haseyo, notula imnida")).waitUntilExit()
        let second = try await newestMemoFile(of: service, otherThan: first)
        try await service.recorder(.process)
        for await message in signals where message.isSignal(.processed) || message.isSignal(.failed) { break }
        let wav = try WAVReader(path: second)
        #expect(wav.windowLevels.filter { $0 > -40 }.count >= 10, "the speech played after the Start is not in its file")
        #expect(!FileManager.default.fileExists(atPath: first), "the discarded memo's audio is deleted")
    }

    /// The audio file of the memo made last, once its row is there (written just after the capture began).
    private func newestMemoFile(of service: ServiceUnderTest, otherThan earlier: String? = nil) async throws -> String {
        var file: String?
        try await poll(within: .seconds(5)) {
            let listed = try await service.library(.list, [.uint32(0), .uint32(1)])
            guard let memo = try listed.argument(0, as: [ObjectPath].self).first,
                case .string(let path) = try await service.property(.audioFile, of: memo), path != earlier
            else { return false }
            file = path
            return true
        } otherwise: {
            MissingInterface(name: "a new memo")
        }
        return try #require(file)
    }

    private struct NoRecordStream: Error, CustomStringConvertible {
        let streams: [String]
        var description: String { "Notula's record streams on the server: \(streams)" }
    }
}
