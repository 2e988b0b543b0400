import CSherpa
import Glibc

/// Silero's voice activity detector through sherpa-onnx: where speech begins and ends in a stream of 16 kHz samples,
/// so that utterances end where no Vosk model ends them. One stream at a time, in the helper.
final class VoiceDetector {
    /// A stretch of speech, in seconds from the stream's first sample.
    struct Segment: Sendable, Equatable {
        let start: Double
        let duration: Double
    }

    /// The quiet that ends an utterance of a recording: 0.3 s, as a reader pauses between sentences (a LibriVox
    /// reading's 0.4–0.6 s pauses made 0.5 s one utterance of 24 s; 0.3 s, the five its transcript marks).
    static let utteranceSilence = 0.3

    private let library: SherpaLibrary
    private let detector: OpaquePointer
    /// Silero's window: sherpa-onnx judges each call's samples as one, so they are handed on a window at a time.
    private static let window = 512
    /// The samples of a window not yet full.
    private var pending: [Float] = []

    /// - Parameters:
    ///   - model: Silero's ONNX file (the silero-vad wheel's `silero_vad.onnx` or `silero_vad_16k_op15.onnx`: sherpa
    ///     2.0.1 ends the process on the others).
    ///   - shortestSilence: the quiet that ends an utterance.
    ///   - longestSpeech: where an utterance is cut when nobody pauses.
    /// - Throws: `.modelUnavailable` when the file is not there; `.recognitionFailed` when sherpa-onnx refuses it.
    init(library: SherpaLibrary, model: String, shortestSilence: Double = utteranceSilence, longestSpeech: Double = 20) throws(SpeechError) {
        guard access(model, R_OK) == 0 else { throw .modelUnavailable("Silero's voice detector is not at \(model).") }
        self.library = library
        let created = model.withCString { path in
            "cpu".withCString { provider in
                var config = notula_sherpa_vad_config()
                config.silero_vad = notula_sherpa_silero_config(
                    model: path, threshold: 0.5, min_silence_duration: Float(shortestSilence), min_speech_duration: 0.25,
                    window_size: Int32(Self.window), max_speech_duration: Float(longestSpeech))
                config.sample_rate = 16_000
                config.num_threads = 1
                config.provider = provider
                // Room for the longest speech and the silence that ends it.
                return library.createDetector(&config, Float(longestSpeech + shortestSilence + 10))
            }
        }
        guard let created else { throw .recognitionFailed("sherpa-onnx could not load Silero's voice detector from \(model).") }
        detector = created
    }

    deinit { library.destroyDetector(detector) }

    /// Hears the next samples (16 kHz, -1…1); returns the utterances that ended in them.
    func append(_ samples: [Float]) -> [Segment] {
        pending += samples
        let whole = pending.count - pending.count % Self.window
        pending.withUnsafeBufferPointer { buffer in
            for start in stride(from: 0, to: whole, by: Self.window) {
                library.detectorAccept(detector, buffer.baseAddress! + start, Int32(Self.window))
            }
        }
        pending.removeFirst(whole)
        return ended()
    }

    /// The stream has ended: the utterance under way, if any, ends with it.
    func finish() -> [Segment] {
        // The last samples' window, filled with quiet.
        let last = pending.isEmpty ? [] : append([Float](repeating: 0, count: Self.window - pending.count))
        library.detectorFlush(detector)
        return last + ended()
    }

    private func ended() -> [Segment] {
        var segments: [Segment] = []
        while library.detectorIsEmpty(detector) == 0 {
            if let segment = library.detectorFront(detector) {
                segments.append(Segment(start: Double(segment.pointee.start) / 16_000, duration: Double(segment.pointee.n) / 16_000))
                library.destroySegment(segment)
            }
            library.detectorPop(detector)
        }
        return segments
    }
}
