import CWhisper
import Glibc
import Recording
import Synchronization

/// One ggml Whisper model loaded by libwhisper, and the decoding of 16 kHz mono samples with it.
///
/// Not thread-safe: one decoding at a time (each state holds its last decoding's segments).
public final class WhisperModel {
    private let library: WhisperLibrary
    private let context: OpaquePointer
    /// A state per kind of decoding, each made at its first: a decoding leaves its mark on the state it ran on. Language
    /// detection encodes with the window of the state's last decoding (a fitted one's `audio_ctx` stays set); a full
    /// window decoding after a fitted one on the same state wrote other text (a comma, and with base whole sentences
    /// left out of 20 s utterances), so the utterances decoded ahead in fitted windows would change the others.
    private var fullState: OpaquePointer?
    private var fittedState: OpaquePointer?
    private var detectionState: OpaquePointer?
    public let path: String

    /// A stretch of decoded speech: its start and end in seconds, and its text.
    public struct Segment: Sendable, Equatable, Codable {
        public let start: Double
        public let end: Double
        public let text: String
    }

    /// The threads a decoding uses: the two cores notulad is built for (`WhisperEngine.cost`).
    public static let threads: Int32 = 2

    /// Loads the model at `path`, on the CPU.
    /// - Throws: `.modelUnavailable` when libwhisper cannot load it.
    public init(library: WhisperLibrary, path: String) throws(SpeechError) {
        var parameters = library.contextDefaults()
        parameters.use_gpu = false
        guard let context = path.withCString({ library.initFromFile($0, parameters) }) else {
            throw .modelUnavailable("libwhisper could not load the Whisper model \(path) (the journal has its reason).")
        }
        self.library = library
        self.context = context
        self.path = path
    }

    deinit {
        for state in [fullState, fittedState, detectionState] { if let state { library.freeState(state) } }
        library.free(context)
    }

    /// `state`, made now if it is not yet.
    private func made(_ state: inout OpaquePointer?) throws(SpeechError) -> OpaquePointer {
        if state == nil { state = library.initState(context) }
        guard let state else { throw .recognitionFailed("libwhisper could not make room for a decoding.") }
        return state
    }

    /// Decodes `samples` (16 kHz mono, −1…1), greedily.
    /// - Parameters:
    ///   - language: Whisper's code of the language spoken: `en`, `de`.
    ///   - prompt: The text before it (the previous utterance's), which steers the spelling; none when empty.
    ///   - threads: The threads the decoding uses.
    ///   - fitted: Whether to try encoding only the audio's own length first (an utterance: `FittedWindow`).
    ///   - isCancelled: Asked by libwhisper between its steps: true stops the decoding.
    /// - Throws: `.recognitionFailed` when libwhisper fails, `.cancelled` when `isCancelled` stopped it.
    public func transcribe(
        _ samples: [Float], language: String, prompt: String = "", threads: Int32 = WhisperModel.threads, fitted: Bool = false,
        isCancelled: @escaping () -> Bool = { false }
    ) throws(SpeechError) -> [Segment] {
        if fitted, let window = FittedWindow(sampleCount: samples.count) {
            let deadline = ContinuousClock.now + window.budget
            let decoded = try decode(
                samples, language: language, prompt: prompt, threads: threads, window: window,
                isCancelled: { isCancelled() || ContinuousClock.now > deadline })
            if let decoded, window.accepts(decoded.segments, noSpeech: decoded.noSpeech) { return decoded.segments }
            Log.info(
                "Whisper: the fitted window's text of a \(window.seconds) s utterance was "
                    + (decoded == nil ? "not ready in time" : "unlike speech (no speech \(decoded?.noSpeech ?? []))")
                    + "; decoding it in the full window.")
        }
        guard let decoded = try decode(samples, language: language, prompt: prompt, threads: threads, window: nil, isCancelled: isCancelled)
        else { throw .recognitionFailed("libwhisper failed to decode the audio.") }
        return decoded.segments
    }

    /// Of `languages` (Whisper's codes), the one `samples` sound most like by Whisper's own detection, weighed among
    /// them alone; the first for one language or an English-only model.
    /// - Throws: `.recognitionFailed` when libwhisper cannot tell.
    func likeliestLanguage(of samples: [Float], among languages: [String], threads: Int32 = WhisperModel.threads) throws(SpeechError)
        -> String
    {
        guard let first = languages.first, languages.count > 1, library.isMultilingual(context) != 0 else { return languages.first ?? "" }
        let state = try made(&detectionState)
        let computed = samples.withUnsafeBufferPointer { library.computeMel(context, state, $0.baseAddress, Int32($0.count), threads) }
        var probabilities = [Float](repeating: 0, count: Int(max(0, library.languageMaxID())) + 1)
        guard computed == 0, library.detectLanguage(context, state, 0, threads, &probabilities) >= 0 else {
            throw .recognitionFailed("libwhisper could not tell which language an utterance is in.")
        }
        func probability(_ code: String) -> Float {
            let id = Int(code.withCString { library.languageID($0) })
            return probabilities.indices.contains(id) ? probabilities[id] : -1
        }
        return languages.dropFirst().reduce(first) { best, next in probability(next) > probability(best) ? next : best }
    }

    /// One run of libwhisper over `samples`, in `window` or in the full 30 s one.
    /// - Returns: The segments with each one's chance of being no speech, or nil when `isCancelled` stopped a fitted
    ///   run (its time budget).
    private func decode(
        _ samples: [Float], language: String, prompt: String, threads: Int32, window: FittedWindow?,
        isCancelled: @escaping () -> Bool
    ) throws(SpeechError) -> (segments: [Segment], noSpeech: [Float])? {
        var parameters = library.fullDefaults(Int32(NOTULA_WHISPER_SAMPLING_GREEDY))
        // The defaults print progress and timestamps on standard output.
        parameters.print_progress = false
        parameters.print_timestamps = false
        parameters.print_realtime = false
        parameters.print_special = false
        parameters.n_threads = threads
        if let window {
            parameters.audio_ctx = window.frames
            // No retries at higher temperatures: a loop is caught by `FittedWindow.accepts`, and the full window redone.
            parameters.temperature_inc = 0
            // One pass over the window, which holds the whole utterance: whisper.cpp's seeking from one segment's end
            // to the next dropped a sentence in a fitted window.
            parameters.single_segment = true
        }
        let state = window == nil ? try made(&fullState) : try made(&fittedState)
        let abort = Unmanaged.passRetained(AbortCheck(isCancelled))
        defer { abort.release() }
        parameters.abort_callback = { userData in
            guard let userData else { return false }
            return Unmanaged<AbortCheck>.fromOpaque(userData).takeUnretainedValue().check()
        }
        parameters.abort_callback_user_data = abort.toOpaque()
        let status = language.withCString { languageCode in
            prompt.withCString { promptText in
                parameters.language = languageCode
                parameters.initial_prompt = prompt.isEmpty ? nil : promptText
                return samples.withUnsafeBufferPointer { library.full(context, state, parameters, $0.baseAddress, Int32($0.count)) }
            }
        }
        if isCancelled() {
            if window != nil { return nil }
            throw .cancelled
        }
        guard status == 0 else { throw .recognitionFailed("libwhisper failed to decode the audio (status \(status)).") }
        let indices = 0..<library.segmentCount(state)
        // One segment over a fitted window ends where the window does, past the audio.
        let seconds = Double(samples.count) / 16_000
        let segments = indices.map { index in
            Segment(
                start: Double(library.segmentStart(state, index)) / 100,
                end: min(seconds, Double(library.segmentEnd(state, index)) / 100),
                // libwhisper starts each segment's text with the space that would join it to the one before.
                text: library.segmentText(state, index).map { String(String(cString: $0).drop { $0 == " " }) } ?? "")
        }
        return (segments, indices.map { library.segmentNoSpeech(state, $0) })
    }
}

/// The cancellation check libwhisper's abort callback asks, through its user data.
private final class AbortCheck {
    let check: () -> Bool
    init(_ check: @escaping () -> Bool) { self.check = check }
}
