import Recording
import Speech

/// The stretches of speech `OpenAudio("vad")` sends, where Silero's detector hears them (`VoiceCutter`, in notulad's
/// voice helper, the level meter standing in if it cannot): each utterance with `VoiceStretches.margin` of what
/// surrounds it, as the level's stretches have. The helper runs only while somebody reads the stretches.
/// Unchecked: only touched under `AudioReaders`' lock.
final class SileroStretches: VoiceStretching, @unchecked Sendable {
    private let detection: VoiceDetection
    private var cutter: VoiceCutter?
    /// Samples of the recording taken so far.
    private var position: UInt64 = 0
    /// Where the cutter's times count from: the sample it was started at.
    private var origin: UInt64 = 0
    /// The recent samples, the first of them `kept` samples into the recording: an utterance's, when it ends.
    private var recent: [Int16] = []
    private var kept: UInt64 = 0
    /// The longest utterance Silero gives (25 s) and more: what is older is never sent.
    private static let keptSamples = VoiceStretches.longest

    init(_ detection: VoiceDetection) {
        self.detection = detection
    }

    func stretches(in samples: UnsafeRawBufferPointer) -> [VoiceFrame] {
        if cutter == nil {
            cutter = VoiceCutter(detection)
            origin = position
        }
        let bytes = [UInt8](samples.prefix(samples.count & ~1))
        samples.forEachSample { recent.append($0) }
        position += UInt64(bytes.count / 2)
        let frames = (cutter?.take(bytes) ?? []).compactMap(frame)
        if recent.count > Self.keptSamples {
            let dropped = recent.count - Self.keptSamples
            recent.removeFirst(dropped)
            kept += UInt64(dropped)
        }
        return frames
    }

    func skip(_ count: Int) {
        cutter = nil
        position += UInt64(count)
        recent = []
        kept = position
    }

    func ended() -> [VoiceFrame] {
        defer { reset() }
        return (cutter?.rest() ?? []).compactMap(frame)
    }

    func dropped() -> VoiceFrame {
        defer { reset() }
        return VoiceFrame(start: position, samples: [])
    }

    private func reset() {
        cutter = nil
        (position, origin, recent, kept) = (0, 0, [], 0)
    }

    /// The samples of `span` (seconds from `origin`) with a margin each side, as far as they are kept.
    private func frame(_ span: (start: Double, end: Double)) -> VoiceFrame? {
        let margin = UInt64(VoiceStretches.margin)
        let start = origin + UInt64(max(0, span.start) * 16_000)
        let from = max(kept, start > margin ? start - margin : 0)
        let to = min(position, origin + UInt64(max(0, span.end) * 16_000) + margin)
        guard from < to else { return nil }
        return VoiceFrame(start: from, samples: Array(recent[Int(from - kept)..<Int(to - kept)]))
    }
}
