import Foundation
import Glibc
import Models
import NotulaTestSupport
import Speech
import Synchronization
import TestPasses
import Testing

private let (exactSentences, ownSentences) = (WordErrorRate.exactSentences, WordErrorRate.ownSentences)

/// A 16 kHz mono WAV of `text` in espeak-ng's American English voice, at `wordsPerMinute`.
private func englishSpeech(_ text: String, wordsPerMinute: Int = 150) throws -> String {
    let raw = FileManager.default.temporaryDirectory.appendingPathComponent("notula-en-\(UUID().uuidString).wav").path
    let file = raw.replacingOccurrences(of: ".wav", with: "-16k.wav")
    try output(of: "espeak-ng", "-v", "en-us", "-s", "\(wordsPerMinute)", "-w", raw, text)
    try output(of: "sox", raw, "-r", "16000", "-c", "1", "-b", "16", file)
    try? FileManager.default.removeItem(atPath: raw)
    return file
}

private let tinyEnglish = packageRoot.appendingPathComponent(".build/whisper/ggml-tiny.en.bin").path

private func helper(idle: Duration = .seconds(30)) -> DecodingHelper {
    // A helper that died is written to as it goes: the write must fail, not end the test runner.
    signal(SIGPIPE, SIG_IGN)
    return DecodingHelper(
        executable: binaryDirectory.appendingPathComponent("notulad").path,
        libraries: .init(whisper: binaryDirectory.appendingPathComponent("whisper/libwhisper.so.1").path), idleRelease: idle)
}

@Suite("libwhisper in a helper process: English text, crashes and cancellation", .serialized, .tags(.modelLoading))
struct WhisperEngineTests {
    @Test func tinyEnglishWritesWhatWasSaidWithFewErrors() async throws {
        let whisper = helper()
        var (wrong, total) = (0, 0)
        for sentence in exactSentences + ownSentences {
            let file = try englishSpeech(sentence)
            defer { try? FileManager.default.removeItem(atPath: file) }
            let text = try await whisper.transcribe(file: file, model: tinyEnglish, language: "en").map(\.text).joined(separator: " ")
            if exactSentences.contains(sentence) { #expect(text == sentence) }
            wrong += WordErrorRate.errors(WordErrorRate.words(text), against: WordErrorRate.words(sentence))
            total += WordErrorRate.words(sentence).count
        }
        #expect(Double(wrong) / Double(total) < 0.10, "\(wrong) of \(total) words wrong")
    }

    @Test func aModelThatCrashesTheEngineFailsThatDecodingAndTheNextOneWorks() async throws {
        let whisper = helper()
        let file = try englishSpeech(exactSentences[0])
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("notula-whisper-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { for path in [file, folder.path] { try? FileManager.default.removeItem(atPath: path) } }
        // The header and the first tensors whole, the rest cut off.
        let truncated = folder.appendingPathComponent("ggml-truncated.bin")
        try FileHandle(forReadingAtPath: tinyEnglish)!.readData(ofLength: 20_000_000).write(to: truncated)
        // All of it in 32-bit floats: it loads, then ggml asserts in the encoder (its convolution takes f16 only).
        let floats = packageRoot.appendingPathComponent(".build/whisper/ggml-tiny.en-f32.bin").path

        for broken in [truncated.path, floats] {
            var failure = ""
            do { _ = try await whisper.transcribe(file: file, model: broken, language: "en") } catch { failure = error.message }
            #expect(failure.contains(broken == floats ? "killed by signal 6" : "could not load"), "\(failure)")
            let text = try await whisper.transcribe(file: file, model: tinyEnglish, language: "en").map(\.text)
            #expect(text == [exactSentences[0]], "a helper started anew, or still there, decodes the next one")
        }
    }

    /// A file of the sentences and one of them four times over (30 s windows encoded whole: seconds of decoding),
    /// tiny.en loaded by decoding the first, and the second's decoding under way.
    private func longDecodingUnderWay(in whisper: DecodingHelper) async throws -> (
        files: [String], decoding: Task<[WhisperModel.Segment], any Error>
    ) {
        let sentence = try englishSpeech(ownSentences.joined(separator: " "))
        let long = sentence.replacingOccurrences(of: ".wav", with: "-long.wav")
        try output(of: "sox", sentence, sentence, sentence, sentence, long)
        _ = try await whisper.transcribe(file: sentence, model: tinyEnglish, language: "en")
        let decoding = Task { try await whisper.transcribe(file: long, model: tinyEnglish, language: "en") }
        try await poll(within: .seconds(10), until: { whisper.isDecoding }) { CancellationError() }
        return ([sentence, long], decoding)
    }

    @Test func aCancelledDecodingStopsWithinHalfASecond() async throws {
        let whisper = helper()
        let (files, decoding) = try await longDecodingUnderWay(in: whisper)
        defer { files.forEach { try? FileManager.default.removeItem(atPath: $0) } }
        let cancelled = ContinuousClock.now
        decoding.cancel()
        await #expect(throws: SpeechError.cancelled) { try await decoding.value }
        #expect(ContinuousClock.now - cancelled < .milliseconds(500))
        let next = try await whisper.transcribe(file: files[0], model: tinyEnglish, language: "en")
        #expect(!next.isEmpty, "the helper goes on with the next decoding")
    }

    /// A decoding cancelled while it waits behind another (a discarded recording's utterance behind a memo transcribed
    /// again) leaves that one to finish: the helper is told to stop its own request only.
    @Test func aDecodingCancelledInTheQueueLeavesTheOneBeingDecodedToFinish() async throws {
        let whisper = helper()
        let (files, decoding) = try await longDecodingUnderWay(in: whisper)
        defer { files.forEach { try? FileManager.default.removeItem(atPath: $0) } }
        let queued = Task { try await whisper.transcribe(file: files[0], model: tinyEnglish, language: "en") }
        queued.cancel()
        await #expect(throws: SpeechError.cancelled) { try await queued.value }
        let text = try await decoding.value.map(\.text).joined(separator: " ")
        #expect(WordErrorRate.words(text).count > 40, "\(text)")
    }

    /// A memo transcribed again by a Whisper model goes through the engine's door, as Vosk's do: its file decoding,
    /// waited for on the caller's thread, gives the text, and stops within half a second once the caller says so.
    @Test func theEnginesFileDecodingGivesTheTextAndStopsWithinHalfASecondOfACancel() async throws {
        let folder = TemporaryFolder()
        try FileManager.default.createSymbolicLink(atPath: folder.file("ggml-tiny.en.bin"), withDestinationPath: tinyEnglish)
        let installed = try #require(InstalledModels.models(in: folder.path).first)
        let whisper = helper()
        let engine = WhisperEngine(helper: whisper, modelPlaces: [folder.path])
        #expect(engine.loads(installed) && engine.cost.memory == .inHelper)
        let sentence = try englishSpeech(ownSentences.joined(separator: " "))
        let long = sentence.replacingOccurrences(of: ".wav", with: "-long.wav")
        defer { for path in [sentence, long] { try? FileManager.default.removeItem(atPath: path) } }
        try output(of: "sox", sentence, sentence, sentence, sentence, long)
        let first = try engine.model(for: installed.locale, named: nil).transcribe(wavFile: sentence, unless: { false })
        #expect(first.model == "ggml-tiny.en" && WordErrorRate.words(first.text).count > 10, "\(first.text)")

        let stop = StopFlag()
        let decoding = Task.detached {
            try engine.model(for: installed.locale, named: "ggml-tiny.en").transcribe(wavFile: long, unless: stop.isSet)
        }
        try await poll(within: .seconds(10), until: { whisper.isDecoding }) { CancellationError() }
        let stopped = ContinuousClock.now
        stop.set()
        await #expect(throws: SpeechError.cancelled) { try await decoding.value }
        #expect(ContinuousClock.now - stopped < .milliseconds(500))
    }
}

extension WhisperEngineTests {
    /// A memo's file decoded again is prompted with the user's vocabulary: a surname tiny.en writes "Newen Puyzen"
    /// on its own comes out spelled; over silence, noise, breathing or music the prompt's terms are not written.
    @Test func theVocabularyPromptsAFilesDecodingAndIsNotWrittenWithoutSpeech() async throws {
        let folder = TemporaryFolder()
        try FileManager.default.createSymbolicLink(atPath: folder.file("ggml-tiny.en.bin"), withDestinationPath: tinyEnglish)
        let terms = ["Nieuwenhuizen", "metoprolol", "Kowalczyk"]
        let engine = WhisperEngine(helper: helper(), modelPlaces: [folder.path], vocabulary: { terms })
        let model = try engine.model(for: "en-US", named: "ggml-tiny.en")
        let said = try englishSpeech("Doctor Nieuwenhuizen will see the patient again on Friday morning.")
        defer { try? FileManager.default.removeItem(atPath: said) }
        let text = try model.transcribe(wavFile: said, unless: { false }).text
        #expect(text.contains("Nieuwenhuizen"), "\(text)")

        // Silence, noise, breathing and music, as sox makes them the same on every run.
        for effects in [
            ["trim", "0", "3"], ["synth", "5", "pinknoise", "vol", "0.1"],
            ["synth", "5", "pinknoise", "vol", "0.05", "tremolo", "0.25", "90", "lowpass", "1500"],
            ["synth", "2", "pluck", "C4", "pluck", "E4", "pluck", "G4", "vol", "0.3", "repeat", "2"],
        ] {
            let clip = FileManager.default.temporaryDirectory.appendingPathComponent("notula-clip-\(UUID().uuidString).wav").path
            defer { try? FileManager.default.removeItem(atPath: clip) }
            try output(of: ["sox", "-R", "-n", "-r", "16000", "-c", "1", "-b", "16", "-e", "signed-integer", clip] + effects)
            let heard = try model.transcribe(wavFile: clip, unless: { false }).text
            #expect(!terms.contains { heard.contains($0) } && !heard.contains("Glossary"), "\(effects[0...1]): \(heard)")
        }
    }
}

/// Whisper base as `scripts/install-whisper-base` converts it, which `make test` does.
private let whisperBase = packageRoot.appendingPathComponent(".build/whisper/ggml-base.bin").path

extension WhisperEngineTests {
    /// The accurate pass decodes utterances in the full window while pieces of the next are decoded ahead in fitted
    /// ones: on one libwhisper state, base then wrote a full window's text otherwise ("healing well and" for "healing
    /// well, and", and in the bench whole sentences left out of 20 s utterances).
    @Test(.enabled(if: FileManager.default.fileExists(atPath: whisperBase), "needs Whisper base: scripts/install-whisper-base"))
    func aFittedDecodingLeavesTheNextFullWindowsTextAsItWas() async throws {
        let folder = TemporaryFolder()
        let sentences = try (exactSentences + ownSentences).prefix(6).map { try englishSpeech($0, wordsPerMinute: 175) }
        defer { sentences.forEach { try? FileManager.default.removeItem(atPath: $0) } }
        let pause = folder.file("pause.wav")
        try output(of: "sox", "-n", "-r", "16000", "-c", "1", "-b", "16", pause, "trim", "0", "0.7")
        func samples(_ files: [String]) throws -> [UInt8] {
            let raw = folder.file("joined-\(UUID().uuidString).raw")
            try output(of: ["sox"] + files.flatMap { [$0, pause] }.dropLast() + ["-t", "raw", raw])
            return Array(try Data(contentsOf: URL(fileURLWithPath: raw)))
        }
        let (long, piece) = (try samples(sentences), try samples(Array(sentences[2...3])))
        let whisper = helper()
        func full() async throws -> String {
            try await whisper.transcribe(audio: long, model: whisperBase, language: "en", prompt: "").segments.map(\.text)
                .joined(separator: " ")
        }
        let before = try await full()
        #expect(try await full() == before, "the full window writes the same text twice running")
        _ = try await whisper.transcribe(audio: piece, model: whisperBase, language: "en", prompt: "", fitted: true)
        #expect(try await full() == before)
    }
}

/// Set by the test, read by the decoding between its waits.
private final class StopFlag: Sendable {
    private let flag = Atomic(false)
    func set() { flag.store(true, ordering: .relaxed) }
    func isSet() -> Bool { flag.load(ordering: .relaxed) }
}
