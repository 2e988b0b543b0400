import CWhisper
import Glibc
import Synchronization

/// One ggml Whisper model loaded by libwhisper, and the decoding of 16 kHz mono samples with it.
///
/// Not thread-safe: one decoding at a time (libwhisper's context holds the last one's segments).
public final class WhisperModel {
    private let library: WhisperLibrary
    private let context: OpaquePointer
    public let path: String

    /// A stretch of decoded speech: its start and end in seconds, and its text.
    public struct Segment: Sendable, Equatable, Codable {
        public let start: Double
        public let end: Double
        public let text: String
    }

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

    deinit { library.free(context) }

    /// Decodes `samples` (16 kHz mono, −1…1), greedily.
    /// - Parameters:
    ///   - language: Whisper's code of the language spoken: `en`, `de`.
    ///   - prompt: The text before it (the previous utterance's), which steers the spelling; none when empty.
    ///   - threads: The threads the decoding uses.
    ///   - isCancelled: Asked by libwhisper between its steps: true stops the decoding.
    /// - Throws: `.recognitionFailed` when libwhisper fails, `.cancelled` when `isCancelled` stopped it.
    public func transcribe(
        _ samples: [Float], language: String, prompt: String = "", threads: Int32 = 2,
        isCancelled: @escaping () -> Bool = { false }
    ) throws(SpeechError) -> [Segment] {
        var parameters = library.fullDefaults(Int32(NOTULA_WHISPER_SAMPLING_GREEDY))
        // The defaults print progress and timestamps on standard output.
        parameters.print_progress = false
        parameters.print_timestamps = false
        parameters.print_realtime = false
        parameters.print_special = false
        parameters.n_threads = threads
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
                return samples.withUnsafeBufferPointer { library.full(context, parameters, $0.baseAddress, Int32($0.count)) }
            }
        }
        if isCancelled() { throw .cancelled }
        guard status == 0 else { throw .recognitionFailed("libwhisper failed to decode the audio (status \(status)).") }
        let pointer = context
        return (0..<library.segmentCount(pointer)).map { index in
            Segment(
                start: Double(library.segmentStart(pointer, index)) / 100, end: Double(library.segmentEnd(pointer, index)) / 100,
                // libwhisper starts each segment's text with the space that would join it to the one before.
                text: library.segmentText(pointer, index).map { String(String(cString: $0).drop { $0 == " " }) } ?? "")
        }
    }
}

/// The cancellation check libwhisper's abort callback asks, through its user data.
private final class AbortCheck {
    let check: () -> Bool
    init(_ check: @escaping () -> Bool) { self.check = check }
}
