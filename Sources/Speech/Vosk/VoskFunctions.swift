import Glibc

/// The libvosk 0.3.45 functions the engine calls, resolved once with `dlsym`.
///
/// No header ships with libvosk, so the C signatures are declared here, from `vosk_api.h`.
/// Every libvosk call of the module goes through this file: one place to audit them.
/// Opaque `VoskModel *` and `VoskRecognizer *` are `OpaquePointer`s.
struct VoskFunctions: Sendable {
    typealias ModelNew = @convention(c) (UnsafePointer<CChar>) -> OpaquePointer?
    typealias ModelFree = @convention(c) (OpaquePointer) -> Void
    typealias RecognizerNew = @convention(c) (OpaquePointer, Float) -> OpaquePointer?
    typealias RecognizerFree = @convention(c) (OpaquePointer) -> Void
    typealias RecognizerSetWords = @convention(c) (OpaquePointer, Int32) -> Void
    typealias RecognizerAcceptWaveformS = @convention(c) (OpaquePointer, UnsafePointer<Int16>, Int32) -> Int32
    typealias RecognizerResult = @convention(c) (OpaquePointer) -> UnsafePointer<CChar>?
    typealias SetLogLevel = @convention(c) (Int32) -> Void

    private let vosk_model_new: ModelNew
    private let vosk_model_free: ModelFree
    private let vosk_recognizer_new: RecognizerNew
    private let vosk_recognizer_free: RecognizerFree
    private let vosk_recognizer_set_words: RecognizerSetWords
    private let vosk_recognizer_accept_waveform_s: RecognizerAcceptWaveformS
    private let vosk_recognizer_result: RecognizerResult
    private let vosk_recognizer_final_result: RecognizerResult
    private let vosk_recognizer_partial_result: RecognizerResult
    private let vosk_set_log_level: SetLogLevel

    /// Resolves every function in the library opened as `handle`.
    /// - Throws: `.engineUnavailable` naming the first function the library lacks.
    init(handle: UnsafeMutableRawPointer, path: String) throws(SpeechError) {
        func resolve<Function>(_ name: String, as type: Function.Type) throws(SpeechError) -> Function {
            guard let symbol = dlsym(handle, name) else {
                throw .engineUnavailable(
                    "\(path) lacks the function \(name): it is not libvosk 0.3.45 or newer. Reinstall it with `pip install vosk` and run `make`."
                )
            }
            return unsafeBitCast(symbol, to: type)
        }
        vosk_model_new = try resolve("vosk_model_new", as: ModelNew.self)
        vosk_model_free = try resolve("vosk_model_free", as: ModelFree.self)
        vosk_recognizer_new = try resolve("vosk_recognizer_new", as: RecognizerNew.self)
        vosk_recognizer_free = try resolve("vosk_recognizer_free", as: RecognizerFree.self)
        vosk_recognizer_set_words = try resolve("vosk_recognizer_set_words", as: RecognizerSetWords.self)
        vosk_recognizer_accept_waveform_s = try resolve("vosk_recognizer_accept_waveform_s", as: RecognizerAcceptWaveformS.self)
        vosk_recognizer_result = try resolve("vosk_recognizer_result", as: RecognizerResult.self)
        vosk_recognizer_final_result = try resolve("vosk_recognizer_final_result", as: RecognizerResult.self)
        vosk_recognizer_partial_result = try resolve("vosk_recognizer_partial_result", as: RecognizerResult.self)
        vosk_set_log_level = try resolve("vosk_set_log_level", as: SetLogLevel.self)
    }

    // MARK: Models

    /// Loads the model in `path`; nil when libvosk rejects the folder.
    /// The corresponding C function is `vosk_model_new`.
    func newModel(path: String) -> OpaquePointer? {
        vosk_model_new(path)
    }

    /// Drops the caller's reference; recognizers made from the model keep it alive.
    /// The corresponding C function is `vosk_model_free`.
    func freeModel(_ model: OpaquePointer) {
        vosk_model_free(model)
    }

    // MARK: Recognizers

    /// A recognizer for audio at `sampleRate`, with word timings in its results; nil on failure.
    /// The corresponding C functions are `vosk_recognizer_new` and `vosk_recognizer_set_words`.
    func newRecognizer(model: OpaquePointer, sampleRate: Float) -> OpaquePointer? {
        guard let recognizer = vosk_recognizer_new(model, sampleRate) else { return nil }
        vosk_recognizer_set_words(recognizer, 1)
        return recognizer
    }

    /// The corresponding C function is `vosk_recognizer_free`.
    func freeRecognizer(_ recognizer: OpaquePointer) {
        vosk_recognizer_free(recognizer)
    }

    /// Decodes samples; 1 when an utterance ended (its result is ready), 0 while it goes on, −1 on failure.
    /// The corresponding C function is `vosk_recognizer_accept_waveform_s`.
    func acceptWaveform(_ recognizer: OpaquePointer, _ samples: UnsafePointer<Int16>, count: Int32) -> Int32 {
        vosk_recognizer_accept_waveform_s(recognizer, samples, count)
    }

    /// The JSON result of the utterance that just ended, copied: libvosk reuses its buffer on the next call.
    /// The corresponding C function is `vosk_recognizer_result`.
    func result(_ recognizer: OpaquePointer) -> String {
        vosk_recognizer_result(recognizer).map { String(cString: $0) } ?? ""
    }

    /// The JSON result of whatever audio is left, copied; the recognizer then starts over.
    /// The corresponding C function is `vosk_recognizer_final_result`.
    func finalResult(_ recognizer: OpaquePointer) -> String {
        vosk_recognizer_final_result(recognizer).map { String(cString: $0) } ?? ""
    }

    /// The JSON guess at the utterance under way (`{"partial": "..."}`), copied.
    /// The corresponding C function is `vosk_recognizer_partial_result`.
    func partialResult(_ recognizer: OpaquePointer) -> String {
        vosk_recognizer_partial_result(recognizer).map { String(cString: $0) } ?? ""
    }

    // MARK: Logging

    /// Negative levels silence Kaldi's logging to stderr.
    /// The corresponding C function is `vosk_set_log_level`.
    func setLogLevel(_ level: Int32) {
        vosk_set_log_level(level)
    }
}
