import Glibc
import Recording

/// Silero's voice detector as installed beside sherpa-onnx, and notulad to run it in (`VoiceHelperServer`).
public struct VoiceDetection: Sendable {
    let executable: String
    let library: String
    let model: String
    /// The quiet that ends an utterance, in seconds.
    public private(set) var silence = VoiceDetector.utteranceSilence

    /// The detector `silero_vad.onnx` beside `library` (libsherpa-onnx-c-api.so, where `make` puts both); nil when
    /// either is missing.
    public init?(executable: String, library: String?) {
        guard let library, let model = Self.model(besides: library) else { return nil }
        self.init(executable: executable, library: library, model: model)
    }

    init(executable: String, library: String, model: String) {
        self.executable = executable
        self.library = library
        self.model = model
    }

    /// The same detector, an utterance ending after `seconds` of quiet.
    public func endingAfter(silence seconds: Double) -> VoiceDetection {
        var detection = self
        detection.silence = seconds
        return detection
    }

    /// `silero_vad.onnx` in the folder of `library`, when it is there.
    static func model(besides library: String) -> String? {
        guard let slash = library.lastIndex(of: "/") else { return nil }
        let model = String(library[..<slash]) + "/silero_vad.onnx"
        return access(model, R_OK) == 0 ? model : nil
    }
}

/// Where utterances end when no Vosk model follows the recording: where Silero's detector hears speech end, in its
/// helper process. The level meter hears the same samples and takes over from the last end Silero gave when the
/// helper cannot start, falls 30 s behind or dies: no utterance is lost, none sent twice.
public final class VoiceCutter: UtteranceEnding {
    private var level = UtteranceCutter()
    /// What the level meter ended while Silero was heard: given in its stead, past Silero's last end, if it stops.
    private var levelBacklog: [(start: Double, end: Double)] = []
    private var helper: VoiceHelperProcess?
    /// The end of the last utterance given, in seconds of the recording.
    private var lastEnd = 0.0

    public init(_ detection: VoiceDetection) {
        helper = VoiceHelperProcess(detection)
        if let helper {
            Log.info("Utterances end where Silero's voice detector hears speech end (voice helper, process \(helper.pid))")
        } else {
            Log.warning("Silero's voice detector could not start: utterances end where the level falls instead")
        }
    }

    deinit { helper?.end() }

    public func take(_ bytes: [UInt8]) -> [(start: Double, end: Double)] {
        levelBacklog += level.take(bytes)
        if let running = helper {
            if let ended = running.send(bytes) { return accepted(ended) }
            stopHearing("stopped hearing")
        }
        return levelsInstead()
    }

    public func rest() -> [(start: Double, end: Double)] {
        levelBacklog += level.rest()
        if let running = helper {
            helper = nil
            if let ended = running.finish() { return accepted(ended) }
            Log.warning("Silero's voice detector did not end the recording's last utterance: the level meter did")
        }
        return levelsInstead()
    }

    /// The level meter's utterances past the last end given.
    private func levelsInstead() -> [(start: Double, end: Double)] {
        defer { levelBacklog = [] }
        return accepted(levelBacklog)
    }

    private func stopHearing(_ reason: String) {
        helper?.end()
        helper = nil
        Log.warning("Silero's voice detector \(reason): utterances end where the level falls from now on")
    }

    /// The spans that end past the last one given, starting no earlier than its end.
    private func accepted(_ spans: [(start: Double, end: Double)]) -> [(start: Double, end: Double)] {
        let given = spans.compactMap { span -> (start: Double, end: Double)? in
            guard span.end > lastEnd else { return nil }
            defer { lastEnd = span.end }
            return (max(span.start, lastEnd), span.end)
        }
        // What overlaps an utterance given was heard in it.
        levelBacklog.removeAll { $0.start < lastEnd }
        return given
    }
}
