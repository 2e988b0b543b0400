import Foundation
import Speech

/// The engines that decode in notulad's decoding helper, with the models this machine has (the made Parakeet and
/// Moonshine, Whisper tiny.en and base where installed) linked into one model folder, and Silero's detector in the
/// voice helper.
struct HelperEngines {
    let whisper: WhisperEngine
    let sherpa: SherpaEngine
    let detector: VoiceHelperRun
    /// The folder the models are linked in.
    let place: URL
    /// Whisper base, multilingual, where `scripts/install-whisper-base` converts it.
    static let whisperBase = FileManager.default.currentDirectoryPath + "/.build/whisper/ggml-base.bin"

    /// The engines for `notulad`'s libraries, with their models linked under `home`; nil with what is missing.
    static func make(notulad: String, home: URL, whisperModel: String) throws -> Result<HelperEngines, Missing> {
        let root = FileManager.default.currentDirectoryPath
        let binaries = URL(fileURLWithPath: notulad).deletingLastPathComponent().path
        let library = binaries + "/sherpa/libsherpa-onnx-c-api.so"
        let silero = binaries + "/sherpa/silero_vad.onnx"
        let made = root + "/.build/sherpa"
        let missing = [library, made + "/SENTENCE", whisperModel, silero].filter { !FileManager.default.fileExists(atPath: $0) }
        guard missing.isEmpty else { return .failure(Missing(paths: missing)) }
        let place = home.appendingPathComponent("models")
        try FileManager.default.createDirectory(at: place, withIntermediateDirectories: true)
        for (name, target) in [
            ("sherpa-onnx-nemo-parakeet-tdt-0.6b-v2-int8", made + "/parakeet"), ("sherpa-onnx-moonshine-tiny-en-int8", made + "/moonshine"),
            ("ggml-tiny.en.bin", whisperModel), ("ggml-base.bin", whisperBase),
        ] where FileManager.default.fileExists(atPath: target) {
            try FileManager.default.createSymbolicLink(atPath: place.appendingPathComponent(name).path, withDestinationPath: target)
        }
        let helper = DecodingHelper(
            executable: notulad, libraries: .init(whisper: binaries + "/whisper/libwhisper.so.1", sherpa: library), idleRelease: .seconds(120))
        return .success(
            HelperEngines(
                whisper: WhisperEngine(helper: helper, modelPlaces: [place.path]), sherpa: SherpaEngine(helper: helper, modelPlaces: [place.path]),
                detector: VoiceHelperRun(notulad: notulad, library: library, model: silero), place: place))
    }

    /// The Whisper models installed, as (label, name): tiny.en always, base where `scripts/install-whisper-base` put it.
    var whisperModels: [(label: String, name: String)] {
        [("Whisper tiny.en", "ggml-tiny.en"), ("Whisper base", "ggml-base")].filter { (try? whisper.model(for: "en-US", named: $0.name)) != nil }
    }

    struct Missing: Error {
        let paths: [String]
        var sentence: String { "Skipped: \(paths.joined(separator: ", ")) missing (`scripts/install-sherpa BIN --test`)." }
    }
}
