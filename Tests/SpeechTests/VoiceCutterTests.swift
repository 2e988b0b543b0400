import Foundation
import Glibc
import NotulaTestSupport
import TestPasses
import Testing

@testable import Speech

/// Where utterances end in a recording no Vosk model follows: Silero in notulad's voice helper, the level meter when
/// the helper cannot hear.
@Suite(
    "Silero's detector ends the utterances of a recording the accurate model follows alone", .serialized, .tags(.speech),
    .enabled(if: SherpaFiles.present, "needs sherpa-onnx and Silero: scripts/install-sherpa BIN --test puts them there"))
struct VoiceCutterTests {
    private let notulad = binaryDirectory.appendingPathComponent("notulad").path

    /// Two sentences, 1.5 s of quiet after each, as 16-bit little-endian bytes; where each sounds, in seconds.
    private func twoSentences() throws -> (bytes: [UInt8], sounds: [(start: Double, end: Double)]) {
        let pause = [Float](repeating: 0, count: 24_000)
        let first = try speechSamples(of: speech("The patient reports mild chest pain.", voice: "en-us"))
        let second = try speechSamples(of: speech("Please call the pharmacy.", voice: "en-us"))
        let stream = first + pause + second + pause
        let bytes = stream.flatMap { sample -> [UInt8] in
            let value = UInt16(bitPattern: Int16(clamping: Int(sample * 32_768)))
            return [UInt8(value & 0xff), UInt8(value >> 8)]
        }
        return (bytes, [soundSpan(first, from: 0), soundSpan(second, from: first.count + pause.count)])
    }

    /// The spans `cutter` gives for `bytes` in 20 ms blocks, each with the second of the recording it came at.
    private func cut(_ bytes: [UInt8], by cutter: inout some UtteranceEnding) -> [(span: (start: Double, end: Double), at: Double)] {
        var heard: [(span: (start: Double, end: Double), at: Double)] = []
        for block in stride(from: 0, to: bytes.count, by: 640) {
            for span in cutter.take(Array(bytes[block..<min(block + 640, bytes.count)])) {
                heard.append((span, Double(block) / 32_000))
            }
            // As a capture hands on its blocks: the helper hears them in real time's order, not all at once.
            if block % 32_000 == 0 { usleep(20_000) }
        }
        return heard + cutter.rest().map { ($0, Double(bytes.count) / 32_000) }
    }

    @Test func eachSentenceIsAnUtteranceEndedWhileTheRecordingGoesOn() throws {
        let (bytes, sounds) = try twoSentences()
        let detection = try #require(VoiceDetection(executable: notulad, library: SherpaFiles.library), "silero_vad.onnx beside the library")
        var cutter = VoiceCutter(detection)

        let heard = cut(bytes, by: &cutter)

        #expect(heard.count == 2, "\(heard)")
        for ((span, _), sound) in zip(heard, sounds) {
            #expect(abs(span.start - sound.start) < 0.15 && abs(span.end - sound.end) < 0.35, "\(span) against the sound at \(sound)")
        }
        // The first ended during the pause after it, before the second sentence was over.
        #expect(heard.first.map { $0.at < sounds[1].end } == true, "\(heard)")
    }

    @Test func aDetectorThatCannotHearLeavesTheLevelMetersUtterances() throws {
        // Its helper dies and is written to as notulad would: the write must fail, not end the test runner.
        signal(SIGPIPE, SIG_IGN)
        let (bytes, _) = try twoSentences()
        let folder = TemporaryFolder()
        let notAModel = folder.file("silero_vad.onnx")
        try "not a model".write(toFile: notAModel, atomically: true, encoding: .utf8)
        var cutter = VoiceCutter(VoiceDetection(executable: notulad, library: SherpaFiles.library, model: notAModel))
        var level = UtteranceCutter()

        let heard = cut(bytes, by: &cutter).map(\.span)
        let expected = cut(bytes, by: &level).map(\.span)

        #expect(heard.count == 2 && heard.map(\.start) == expected.map(\.start) && heard.map(\.end) == expected.map(\.end), "\(heard)")
    }
}
