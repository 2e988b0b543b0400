import Foundation
import NotulaTestSupport
import Testing

@testable import Speech

/// sherpa-onnx 2.0.1 for real, from the sherpa-onnx-core wheel: its recognisers on the models the tests make
/// (`Tests/sherpa-models/make-models.py`: they hear only loudness, a word of their sentence a loud stretch) and
/// Silero's voice detector from the silero-vad wheel. Models that end or abort the process are the helper's tests.
@Suite(.enabled(if: SherpaFiles.present, "needs sherpa-onnx and the made models: make test-models installs them"))
struct SherpaTests {
    let library: SherpaLibrary

    init() throws {
        library = try SherpaLibrary.load(searchingFrom: [SherpaFiles.library])
    }

    @Test(arguments: SherpaRecognizer.Family.allCases)
    func aMadeModelWritesItsSentenceForSpeechAndNothingForSilence(_ family: SherpaRecognizer.Family) throws {
        let recognizer = try SherpaRecognizer(library: library, family: family, folder: SherpaFiles.models + "/" + family.rawValue, threads: 1)
        let sentence = try String(contentsOfFile: SherpaFiles.models + "/SENTENCE", encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)

        let heard = recognizer.decode(try speechSamples(of: speech("Notula hears what you say", voice: "en-us")))
        let quiet = recognizer.decode(try speechSamples(of: silence(seconds: 1.5)))

        #expect(heard.text == sentence)
        #expect(heard.words.map(\.word) == sentence.split(separator: " ").map(String.init))
        #expect(zip(heard.words, heard.words.dropFirst()).allSatisfy { $0.end <= $1.start + 1e-6 && $0.start < $1.start }, "\(heard.words)")
        #expect(quiet.text.isEmpty && quiet.words.isEmpty)
    }

    @Test func aTruncatedModelIsRefusedAndAMissingFileNamed() throws {
        let broken = SherpaFiles.models + "/broken/truncated"
        #expect(throws: SpeechError.self) { try SherpaRecognizer(library: library, family: .parakeet, folder: broken, threads: 1) }
        #expect {
            try SherpaRecognizer(library: library, family: .moonshine, folder: SherpaFiles.models + "/parakeet", threads: 1)
        } throws: { error in
            (error as? SpeechError)?.message.contains("has no readable preprocess.onnx") == true
        }
    }

    /// Two sentences, a second of quiet after each: two utterances, each from where its sound starts.
    @Test func sileroEndsAnUtteranceAtEachPause() throws {
        let detector = try VoiceDetector(library: library, model: SherpaFiles.models + "/silero_vad.onnx", shortestSilence: 0.25)
        let pause = [Float](repeating: 0, count: 16_000)
        let first = try speechSamples(of: speech("The patient reports mild chest pain.", voice: "en-us"))
        let second = try speechSamples(of: speech("Please call the pharmacy.", voice: "en-us"))
        let stream = first + pause + second + pause
        let sounds = [soundSpan(first, from: 0), soundSpan(second, from: first.count + pause.count)]

        // In 100 ms blocks, as the capture hands them on.
        var segments: [VoiceDetector.Segment] = []
        for block in stride(from: 0, to: stream.count, by: 1600) {
            segments += detector.append(Array(stream[block..<min(block + 1600, stream.count)]))
        }
        segments += detector.finish()

        #expect(segments.count == 2, "\(segments)")
        for (segment, sound) in zip(segments, sounds) {
            #expect(abs(segment.start - sound.start) < 0.15, "\(segment) against the sound at \(sound)")
            #expect(abs(segment.start + segment.duration - sound.end) < 0.35, "\(segment) against the sound at \(sound)")
        }
    }

    @Test func anotherReleaseOfTheLibraryIsRefusedSayingWhichItIs() throws {
        let folder = TemporaryFolder()
        let source = folder.file("fake.c")
        try #"const char *SherpaOnnxGetVersionStr(void) { return "1.12.0"; }"#.write(toFile: source, atomically: true, encoding: .utf8)
        try output(of: "cc", "-shared", "-fPIC", "-o", folder.file("libsherpa-onnx-c-api.so"), source)

        #expect {
            try SherpaLibrary.load(searchingFrom: [folder.file("libsherpa-onnx-c-api.so")])
        } throws: { error in
            (error as? SpeechError)?.message.contains("is sherpa-onnx 1.12.0; Notula calls only sherpa-onnx 2.0.1") == true
        }
    }

    @Test func theStructsDeclaredAreLaidOutAsTheWheelsHeaderHasThem() throws {
        let result = try run(
            "cc", [
                "-fsyntax-only", "-I", packageRoot.appendingPathComponent("Sources/CSherpa/include").path, "-I", SherpaFiles.models + "/include",
                packageRoot.appendingPathComponent("Tests/sherpa-models/layout.c").path,
            ])
        #expect(result.status == 0, "\(result.errorOutput)")
    }
}

/// The library `make test-models` puts beside the test binaries, and the models it makes.
enum SherpaFiles {
    static let library = binaryDirectory.appendingPathComponent("sherpa/libsherpa-onnx-c-api.so").path
    static let models = packageRoot.appendingPathComponent(".build/sherpa").path
    static var present: Bool {
        FileManager.default.fileExists(atPath: library) && FileManager.default.fileExists(atPath: models + "/SENTENCE")
    }
}

/// A WAV file's samples at 16 kHz mono, -1…1 (sox converts espeak-ng's 22 kHz).
func speechSamples(of file: String) throws -> [Float] {
    let folder = TemporaryFolder()
    let raw = folder.file("samples.raw")
    try output(of: "sox", file, "-r", "16000", "-c", "1", "-b", "16", "-e", "signed-integer", "-t", "raw", raw)
    let bytes = try withExtendedLifetime(folder) { try Data(contentsOf: URL(fileURLWithPath: raw)) }
    return stride(from: 0, to: bytes.count - 1, by: 2).map { Float(Int16(bitPattern: UInt16(bytes[$0]) | UInt16(bytes[$0 + 1]) << 8)) / 32_768 }
}

/// Where `samples` is louder than -40 dBFS, in seconds, placed `offset` samples into the stream.
func soundSpan(_ samples: [Float], from offset: Int) -> (start: Double, end: Double) {
    let loud = samples.indices.filter { abs(samples[$0]) > 0.01 }
    return (Double(offset + (loud.first ?? 0)) / 16_000, Double(offset + (loud.last ?? 0)) / 16_000)
}
