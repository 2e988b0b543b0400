import Foundation
import Glibc
import Models
import NotulaTestSupport
import Recording
import Synchronization
import TestPasses
import Testing

@testable import Speech

/// sherpa-onnx in the decoding helper, `notulad --decoding-helper`, on the models the tests make: the sentence heard,
/// the models that end or abort the process failing that one decoding with a reason, a cancel within half a second.
@Suite(
    "sherpa-onnx in the decoding helper", .serialized, .tags(.speech),
    .enabled(if: SherpaFiles.present, "needs sherpa-onnx and the made models: scripts/install-sherpa BIN --test makes them"))
struct SherpaHelperTests {
    private let sentence =
        (try? String(contentsOfFile: SherpaFiles.models + "/SENTENCE", encoding: .utf8))?
        .trimmingCharacters(in: .whitespacesAndNewlines) ?? ""

    /// A helper of the test binaries' notulad; `delay` seconds more for each sherpa-onnx decoding, deaf to a cancel.
    private func helper(delay: Double? = nil, in folder: TemporaryFolder) throws -> DecodingHelper {
        // A helper that died is written to as it goes: the write must fail, not end the test runner.
        signal(SIGPIPE, SIG_IGN)
        var executable = binaryDirectory.appendingPathComponent("notulad").path
        if let delay {
            let script = folder.file("slow-notulad")
            try "#!/bin/sh\nNOTULA_SHERPA_TEST_DELAY=\(delay) exec '\(executable)' \"$@\"\n".write(
                toFile: script, atomically: true, encoding: .utf8)
            chmod(script, 0o700)
            executable = script
        }
        return DecodingHelper(executable: executable, libraries: .init(sherpa: SherpaFiles.library), idleRelease: .seconds(30))
    }

    /// `file`'s samples, 16 kHz mono 16-bit little-endian, as the accurate pass hands an utterance on.
    private func bytes(of file: String) throws -> [UInt8] {
        let folder = TemporaryFolder()
        let raw = folder.file("samples.raw")
        try output(of: "sox", file, "-r", "16000", "-c", "1", "-b", "16", "-e", "signed-integer", "-t", "raw", raw)
        return try [UInt8](Data(contentsOf: URL(fileURLWithPath: raw)))
    }

    @Test(arguments: SherpaRecognizer.Family.allCases)
    func aMadeModelWritesItsSentenceInTheHelper(_ family: SherpaRecognizer.Family) async throws {
        let folder = TemporaryFolder()
        let decoding = try helper(in: folder)
        let model = SherpaFiles.models + "/" + family.rawValue

        let heard = try await decoding.transcribe(
            utterance: try bytes(of: speech("Notula hears what you say", voice: "en-us")), family: family, folder: model)
        let quiet = try await decoding.transcribe(utterance: try bytes(of: silence(seconds: 1.5)), family: family, folder: model)

        #expect(heard.text == sentence && heard.words.map(\.word) == sentence.split(separator: " ").map(String.init), "\(heard)")
        #expect(quiet.text.isEmpty && quiet.words.isEmpty)
    }

    /// A memo's file: an utterance at each stretch of speech, the words placed in the file.
    @Test func theEngineDecodesAFileUtteranceByUtterance() throws {
        let folder = TemporaryFolder()
        let place = TemporaryFolder()
        try FileManager.default.createSymbolicLink(
            atPath: place.file("sherpa-onnx-moonshine-tiny-en-int8"), withDestinationPath: SherpaFiles.models + "/moonshine")
        let engine = SherpaEngine(helper: try helper(in: folder), modelPlaces: [place.path])
        let installed = try #require(InstalledModels.models(in: place.path).first)
        #expect(engine.loads(installed) && engine.cost.memory == .inHelper && installed.locale == "en-US")
        let pause = try silence(seconds: 1.5)
        let said = folder.file("said.wav")
        try output(
            of: "sox", try speech("The patient reports mild chest pain.", voice: "en-us"), "-r", "16000", "-c", "1", "-b", "16", said)
        let file = folder.file("memo.wav")
        try output(of: "sox", pause, said, pause, said, file)

        let transcript = try engine.model(for: "en-US", named: nil).transcribe(wavFile: file, unless: { false })

        #expect(transcript.text == sentence + " " + sentence && transcript.model == "sherpa-onnx-moonshine-tiny-en-int8", "\(transcript)")
        let secondStart = try #require(transcript.words.dropFirst(3).first?.start)
        #expect(transcript.words.first.map { $0.start > 1.0 } == true && secondStart > 3.0, "\(transcript.words)")
    }

    /// Each broken model costs its decoding alone, with a reason a person can act on; the next decoding, in the same
    /// helper or a new one, writes the sentence.
    @Test(arguments: [
        ("truncated", SherpaRecognizer.Family.parakeet, "sherpa-onnx could not load the parakeet model"),
        ("tokens-mismatch", .parakeet, "(exit status 255): the model may be damaged"),
        ("parakeet-runtime-failure", .parakeet, "(killed by signal 6): the model may be damaged"),
    ])
    func aBrokenModelFailsItsDecodingAloneAndTheNextOneWorks(_ broken: String, _ family: SherpaRecognizer.Family, _ reason: String)
        async throws
    {
        let folder = TemporaryFolder()
        let decoding = try helper(in: folder)
        let audio = try bytes(of: speech("Notula hears what you say", voice: "en-us"))

        await #expect {
            _ = try await decoding.transcribe(utterance: audio, family: family, folder: SherpaFiles.models + "/broken/" + broken)
        } throws: { error in
            (error as? SpeechError)?.message.contains(reason) == true
        }
        let next = try await decoding.transcribe(utterance: audio, family: family, folder: SherpaFiles.models + "/" + family.rawValue)
        #expect(next.text == sentence)
    }

    /// Moonshine's runtime failure is no crash: sherpa-onnx gives no text.
    @Test func aMoonshineThatFailsAtRunTimeWritesNothing() async throws {
        let folder = TemporaryFolder()
        let decoding = try helper(in: folder)
        let audio = try bytes(of: speech("Notula hears what you say", voice: "en-us"))
        let failed = try await decoding.transcribe(
            utterance: audio, family: .moonshine, folder: SherpaFiles.models + "/broken/moonshine-runtime-failure")
        #expect(failed.text.isEmpty)
        #expect(
            try await decoding.transcribe(utterance: audio, family: .moonshine, folder: SherpaFiles.models + "/moonshine").text == sentence)
    }

    /// sherpa-onnx cannot be stopped inside a decoding: a helper that has not answered half a second after the cancel
    /// is ended, and the next decoding starts another.
    @Test func aCancelledDecodingReturnsWithinHalfASecondThoughTheLibraryGoesOn() async throws {
        let folder = TemporaryFolder()
        let decoding = try helper(delay: 5, in: folder)
        let audio = try bytes(of: speech("Notula hears what you say", voice: "en-us"))
        let model = SherpaFiles.models + "/parakeet"

        let slow = Task { try await decoding.transcribe(utterance: audio, family: .parakeet, folder: model) }
        try await poll(within: .seconds(10), until: { decoding.isDecoding }) { CancellationError() }
        // Into the decoding, past the reading of the request.
        try await Task.sleep(for: .milliseconds(200))
        let cancelled = ContinuousClock.now
        slow.cancel()
        await #expect(throws: SpeechError.cancelled) { try await slow.value }
        let took = ContinuousClock.now - cancelled
        #expect(took < .milliseconds(500), "\(took)")
        print("sherpa-onnx: a cancelled decoding returned after \(took)")
        #expect(try await decoding.transcribe(utterance: audio, family: .parakeet, folder: model).text == sentence)
    }
}
