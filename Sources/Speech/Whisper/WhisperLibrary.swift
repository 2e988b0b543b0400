import CWhisper
import Glibc
import Recording

/// libwhisper 1.8.5, opened at run time (from the pywhispercpp wheel's folder, kept whole: it finds its ggml
/// libraries through `$ORIGIN/pywhispercpp.libs`). Only 1.8.5 is taken: the structs passed by value are declared
/// in `CWhisper.h` for that release alone. Loaded only in the helper process (`DecodingHelper`): a ggml assertion
/// aborts the process that runs it.
public struct WhisperLibrary: Sendable {
    /// The one release whose structs `CWhisper.h` declares.
    public static let version = "1.8.5"

    let contextDefaults: whisper_context_default_params_fn
    let initFromFile: whisper_init_from_file_with_params_fn
    let fullDefaults: whisper_full_default_params_fn
    let full: whisper_full_with_state_fn
    let segmentCount: whisper_full_n_segments_from_state_fn
    let segmentText: whisper_full_get_segment_text_from_state_fn
    let segmentStart: whisper_full_get_segment_t0_from_state_fn
    let segmentEnd: whisper_full_get_segment_t0_from_state_fn
    let segmentNoSpeech: whisper_full_get_segment_no_speech_prob_from_state_fn
    let free: whisper_free_fn
    let initState: whisper_init_state_fn
    let freeState: whisper_free_state_fn
    let computeMel: whisper_pcm_to_mel_with_state_fn
    let detectLanguage: whisper_lang_auto_detect_with_state_fn
    let languageMaxID: whisper_lang_max_id_fn
    let languageID: whisper_lang_id_fn
    let isMultilingual: whisper_is_multilingual_fn

    /// Where to look, in order: `$NOTULA_WHISPER_LIBRARY`, then `whisper/libwhisper.so.1` beside the executable (where
    /// the make targets unpack the wheel), then `../lib/notula/whisper/libwhisper.so.1` from there (installed).
    public static func defaultCandidates(environment: [String: String], executableDirectory: String) -> [String] {
        RuntimeLibrary.candidates(
            variable: "NOTULA_WHISPER_LIBRARY", file: "whisper/libwhisper.so.1", environment: environment, executableDirectory: executableDirectory)
    }

    /// The first of `candidates` that is a file, resolved: the library the helper is given.
    public static func firstPresent(in candidates: [String]) -> String? { VoskLibrary.firstPresent(in: candidates) }

    /// Opens the first of `candidates` that loads, checks its release and sends its log to the journal.
    /// - Throws: `.engineUnavailable` saying where it looked, or which release it found, or which function it lacks.
    public static func load(searchingFrom candidates: [String]) throws(SpeechError) -> WhisperLibrary {
        let opened = try RuntimeLibrary.open(
            "libwhisper", release: version, versionSymbol: "whisper_version", from: candidates,
            advice: "Run `make`, which unpacks it from the pywhispercpp 1.5.1 wheel, or point NOTULA_WHISPER_LIBRARY at its libwhisper.so.1.")
        return try WhisperLibrary(opened)
    }

    private init(_ library: RuntimeLibrary) throws(SpeechError) {
        contextDefaults = try library.function("whisper_context_default_params", as: whisper_context_default_params_fn.self)
        // Without a state: each kind of decoding makes its own (`WhisperModel`).
        initFromFile = try library.function("whisper_init_from_file_with_params_no_state", as: whisper_init_from_file_with_params_fn.self)
        fullDefaults = try library.function("whisper_full_default_params", as: whisper_full_default_params_fn.self)
        full = try library.function("whisper_full_with_state", as: whisper_full_with_state_fn.self)
        segmentCount = try library.function("whisper_full_n_segments_from_state", as: whisper_full_n_segments_from_state_fn.self)
        segmentText = try library.function("whisper_full_get_segment_text_from_state", as: whisper_full_get_segment_text_from_state_fn.self)
        segmentStart = try library.function("whisper_full_get_segment_t0_from_state", as: whisper_full_get_segment_t0_from_state_fn.self)
        segmentEnd = try library.function("whisper_full_get_segment_t1_from_state", as: whisper_full_get_segment_t0_from_state_fn.self)
        segmentNoSpeech = try library.function(
            "whisper_full_get_segment_no_speech_prob_from_state", as: whisper_full_get_segment_no_speech_prob_from_state_fn.self)
        free = try library.function("whisper_free", as: whisper_free_fn.self)
        initState = try library.function("whisper_init_state", as: whisper_init_state_fn.self)
        freeState = try library.function("whisper_free_state", as: whisper_free_state_fn.self)
        computeMel = try library.function("whisper_pcm_to_mel_with_state", as: whisper_pcm_to_mel_with_state_fn.self)
        detectLanguage = try library.function("whisper_lang_auto_detect_with_state", as: whisper_lang_auto_detect_with_state_fn.self)
        languageMaxID = try library.function("whisper_lang_max_id", as: whisper_lang_max_id_fn.self)
        languageID = try library.function("whisper_lang_id", as: whisper_lang_id_fn.self)
        isMultilingual = try library.function("whisper_is_multilingual", as: whisper_is_multilingual_fn.self)
        let setLog = try library.function("whisper_log_set", as: whisper_log_set_fn.self)
        setLog({ level, text, _ in Self.journal(level, text) }, nil)
    }

    /// ggml's log lines at their priority: its progress and timings are debug, its warnings and errors the journal's.
    private static func journal(_ level: Int32, _ text: UnsafePointer<CChar>?) {
        guard let text else { return }
        var line = Substring(String(cString: text))
        while line.last?.isWhitespace == true { line.removeLast() }
        guard !line.isEmpty else { return }
        switch level {
        case Int32(NOTULA_GGML_LOG_LEVEL_ERROR): Log.error("libwhisper: \(line)")
        case Int32(NOTULA_GGML_LOG_LEVEL_WARN): Log.warning("libwhisper: \(line)")
        default: Log.debug("libwhisper: \(line)")
        }
    }
}
