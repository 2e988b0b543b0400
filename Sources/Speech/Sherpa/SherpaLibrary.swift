import CSherpa

/// sherpa-onnx 2.0.1's C API, opened at run time from the sherpa-onnx-core wheel's folder kept whole
/// (`libsherpa-onnx-c-api.so` finds `libonnxruntime.so` beside it). Only 2.0.1 is taken: the structs passed by pointer
/// are declared in `CSherpa.h` for that release alone. Meant for a helper process: sherpa ends the process that
/// loads an inconsistent model (`exit(-1)`), and aborts on a NeMo model that fails while decoding.
public struct SherpaLibrary: Sendable {
    /// The one release whose structs `CSherpa.h` declares.
    public static let version = "2.0.1"

    let createRecognizer: notula_sherpa_create_recognizer_fn
    let destroyRecognizer: notula_sherpa_destroy_recognizer_fn
    let createStream: notula_sherpa_create_stream_fn
    let destroyStream: notula_sherpa_destroy_stream_fn
    let acceptWaveform: notula_sherpa_accept_waveform_fn
    let decode: notula_sherpa_decode_fn
    let result: notula_sherpa_result_fn
    let destroyResult: notula_sherpa_destroy_result_fn
    let createDetector: notula_sherpa_create_vad_fn
    let destroyDetector: notula_sherpa_vad_fn
    let detectorAccept: notula_sherpa_vad_accept_fn
    let detectorFlush: notula_sherpa_vad_fn
    let detectorIsEmpty: notula_sherpa_vad_empty_fn
    let detectorFront: notula_sherpa_vad_front_fn
    let detectorPop: notula_sherpa_vad_fn
    let destroySegment: notula_sherpa_destroy_segment_fn

    /// Where to look, in order: `$NOTULA_SHERPA_LIBRARY`, then `sherpa/libsherpa-onnx-c-api.so` beside the executable
    /// (where the make targets unpack the wheel), then `../lib/notula/sherpa/libsherpa-onnx-c-api.so` from there.
    public static func defaultCandidates(environment: [String: String], executableDirectory: String) -> [String] {
        RuntimeLibrary.candidates(
            variable: "NOTULA_SHERPA_LIBRARY", file: "sherpa/libsherpa-onnx-c-api.so", environment: environment,
            executableDirectory: executableDirectory)
    }

    /// The first of `candidates` that is a file, resolved: the library the helper is given.
    public static func firstPresent(in candidates: [String]) -> String? { VoskLibrary.firstPresent(in: candidates) }

    /// Opens the first of `candidates` that loads and checks its release.
    /// - Throws: `.engineUnavailable` saying where it looked, or which release it found, or which function it lacks.
    public static func load(searchingFrom candidates: [String]) throws(SpeechError) -> SherpaLibrary {
        let opened = try RuntimeLibrary.open(
            "sherpa-onnx", release: version, versionSymbol: "SherpaOnnxGetVersionStr", from: candidates,
            advice: "Run `make`, which unpacks it from the sherpa-onnx-core \(version) wheel, or point NOTULA_SHERPA_LIBRARY at its "
                + "libsherpa-onnx-c-api.so.")
        return try SherpaLibrary(opened)
    }

    private init(_ library: RuntimeLibrary) throws(SpeechError) {
        createRecognizer = try library.function("SherpaOnnxCreateOfflineRecognizer", as: notula_sherpa_create_recognizer_fn.self)
        destroyRecognizer = try library.function("SherpaOnnxDestroyOfflineRecognizer", as: notula_sherpa_destroy_recognizer_fn.self)
        createStream = try library.function("SherpaOnnxCreateOfflineStream", as: notula_sherpa_create_stream_fn.self)
        destroyStream = try library.function("SherpaOnnxDestroyOfflineStream", as: notula_sherpa_destroy_stream_fn.self)
        acceptWaveform = try library.function("SherpaOnnxAcceptWaveformOffline", as: notula_sherpa_accept_waveform_fn.self)
        decode = try library.function("SherpaOnnxDecodeOfflineStream", as: notula_sherpa_decode_fn.self)
        result = try library.function("SherpaOnnxGetOfflineStreamResult", as: notula_sherpa_result_fn.self)
        destroyResult = try library.function("SherpaOnnxDestroyOfflineRecognizerResult", as: notula_sherpa_destroy_result_fn.self)
        createDetector = try library.function("SherpaOnnxCreateVoiceActivityDetector", as: notula_sherpa_create_vad_fn.self)
        destroyDetector = try library.function("SherpaOnnxDestroyVoiceActivityDetector", as: notula_sherpa_vad_fn.self)
        detectorAccept = try library.function("SherpaOnnxVoiceActivityDetectorAcceptWaveform", as: notula_sherpa_vad_accept_fn.self)
        detectorFlush = try library.function("SherpaOnnxVoiceActivityDetectorFlush", as: notula_sherpa_vad_fn.self)
        detectorIsEmpty = try library.function("SherpaOnnxVoiceActivityDetectorEmpty", as: notula_sherpa_vad_empty_fn.self)
        detectorFront = try library.function("SherpaOnnxVoiceActivityDetectorFront", as: notula_sherpa_vad_front_fn.self)
        detectorPop = try library.function("SherpaOnnxVoiceActivityDetectorPop", as: notula_sherpa_vad_fn.self)
        destroySegment = try library.function("SherpaOnnxDestroySpeechSegment", as: notula_sherpa_destroy_segment_fn.self)
    }
}
