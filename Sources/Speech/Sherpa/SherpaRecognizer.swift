import CSherpa
import Glibc
import Models
import Recording

/// One sherpa-onnx offline recogniser holding one model, from the folder of its archive as sherpa-onnx publishes it:
/// Parakeet TDT (a NeMo transducer) or Moonshine. It decodes whole utterances; one decoding at a time, in the helper.
final class SherpaRecognizer {
    /// The model families Notula loads, each with the files its archive holds.
    enum Family: String, Sendable, CaseIterable {
        case parakeet, moonshine

        /// The family of a model of `kind`; nil for a kind sherpa-onnx does not run here.
        init?(kind: ModelKind) { self.init(rawValue: kind.rawValue) }

        /// The kind of model the family's recogniser opens.
        var kind: ModelKind { ModelKind(rawValue: rawValue) }

        /// The files the recogniser opens, `tokens.txt` last.
        var files: [String] { SherpaModelFiles.files(of: kind) }
    }

    private let library: SherpaLibrary
    private let recognizer: OpaquePointer

    /// Loads the model in `folder`.
    /// - Throws: `.modelUnavailable` naming a missing file; `.recognitionFailed` when sherpa-onnx refuses the model
    ///   (a truncated file: it says why on standard error, which the helper keeps).
    init(library: SherpaLibrary, family: Family, folder: String, threads: Int) throws(SpeechError) {
        let paths = family.files.map { folder + "/" + $0 }
        if let missing = paths.first(where: { access($0, R_OK) != 0 }) {
            throw .modelUnavailable("The \(family.rawValue) model in \(folder) has no readable \(missing.split(separator: "/").last ?? "").")
        }
        self.library = library
        let created = (paths + ["cpu", "greedy_search", "nemo_transducer"]).withCStrings { names in
            let named = family.files.count - 1
            var config = notula_sherpa_recognizer_config()
            config.feat_config = notula_sherpa_feature_config(sample_rate: 16_000, feature_dim: 80)
            config.model_config.tokens = names[named]
            config.model_config.num_threads = Int32(clamping: threads)
            config.model_config.provider = names[named + 1]
            config.decoding_method = names[named + 2]
            switch family {
            case .parakeet:
                config.model_config.model_type = names[named + 3]
                config.model_config.transducer = notula_sherpa_transducer_config(encoder: names[0], decoder: names[1], joiner: names[2])
            case .moonshine:
                config.model_config.moonshine = notula_sherpa_moonshine_config(
                    preprocessor: names[0], encoder: names[1], uncached_decoder: names[2], cached_decoder: names[3], merged_decoder: nil)
            }
            return library.createRecognizer(&config)
        }
        guard let created else { throw .recognitionFailed("sherpa-onnx could not load the \(family.rawValue) model in \(folder).") }
        recognizer = created
    }

    deinit { library.destroyRecognizer(recognizer) }

    /// The text of one utterance (16 kHz samples in -1…1), its words timed from its first sample where the model
    /// times its tokens, else spread over its length.
    func decode(_ samples: [Float]) -> Transcript {
        let stream = library.createStream(recognizer)
        defer { library.destroyStream(stream) }
        samples.withUnsafeBufferPointer { library.acceptWaveform(stream, 16_000, $0.baseAddress, Int32(clamping: $0.count)) }
        library.decode(recognizer, stream)
        guard let result = library.result(stream) else { return Transcript() }
        defer { library.destroyResult(result) }
        let text = result.pointee.text.map { String(cString: $0) } ?? ""
        let count = Int(max(0, result.pointee.count))
        let tokens = (0..<count).compactMap { index in result.pointee.tokens_arr?[index].map { String(cString: $0) } }
        let times = result.pointee.timestamps.map { Array(UnsafeBufferPointer(start: $0, count: count)) }
        let length = Double(samples.count) / 16_000
        return Transcript(text: text.trimmingSpaces, words: SherpaWords.words(text: text, tokens: tokens, times: times, length: length))
    }
}

extension [String] {
    /// Calls `body` with each string as a C string, all alive for its whole call.
    fileprivate func withCStrings<Result>(_ body: ([UnsafePointer<CChar>]) -> Result) -> Result {
        let copies = map { strdup($0)! }
        defer { copies.forEach { free($0) } }
        return body(copies.map { UnsafePointer($0) })
    }
}

extension String {
    fileprivate var trimmingSpaces: String {
        String(drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
    }
}
