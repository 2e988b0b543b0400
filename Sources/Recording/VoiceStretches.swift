/// A stretch of speech as `OpenAudio("vad")` sends it: a 12-byte header — the number of samples (UInt32) and the
/// sample of the recording it starts at (UInt64, 16 000 a second, paused time not counted), both little-endian —
/// then the samples, signed 16-bit little-endian. No samples: the recording was discarded, its stretches with it.
public struct VoiceFrame: Sendable, Equatable {
    public let start: UInt64
    public let samples: [Int16]

    public init(start: UInt64, samples: [Int16]) {
        self.start = start
        self.samples = samples
    }

    public var encoded: [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(12 + samples.count * 2)
        withUnsafeBytes(of: UInt32(samples.count).littleEndian) { bytes += $0 }
        withUnsafeBytes(of: start.littleEndian) { bytes += $0 }
        for sample in samples {
            bytes.append(UInt8(truncatingIfNeeded: sample))
            bytes.append(UInt8(truncatingIfNeeded: sample >> 8))
        }
        return bytes
    }
}

/// The stretches of speech in a recording's samples, the silence between them trimmed. A stretch starts at the
/// first frame of speech and ends once `silenceSeconds` passed without one; it keeps `margin` of quiet on each side
/// so that no word's soft start or end is cut.
public struct VoiceStretches: Sendable {
    /// 0.2 s of quiet kept on each side of a stretch.
    public static let margin = SilenceDetector.sampleRate / 5
    /// A stretch longer than 30 s is sent in pieces: a reader never waits longer, and memory stays bounded.
    public static let longest = SilenceDetector.sampleRate * 30

    private let threshold: Double
    private let silenceSeconds: Double
    private let silenceSamples: Int
    private var frames: SpeechFrames
    /// Samples of the recording taken so far.
    private var position: UInt64 = 0
    /// The frame being filled.
    private var frame: [Int16] = []
    /// Out of a stretch: the last `margin` samples, which start the next one.
    private var recent: [Int16] = []
    /// The stretch under way and where it starts.
    private var stretch: (start: UInt64, samples: [Int16], spoken: Int)?
    /// Samples since the stretch's last frame of speech.
    private var quiet = 0

    /// - Parameters:
    ///   - threshold: dBFS; a 20 ms frame louder than this is speech.
    ///   - silenceSeconds: how long the quiet that ends a stretch lasts.
    public init(threshold: Double, silenceSeconds: Double) {
        self.threshold = threshold
        self.silenceSeconds = silenceSeconds
        silenceSamples = max(SpeechFrames.frameSamples, Int(silenceSeconds * Double(SilenceDetector.sampleRate)))
        frames = SpeechFrames(level: threshold)
        frame.reserveCapacity(SpeechFrames.frameSamples)
    }

    /// Takes the next samples (signed 16-bit little-endian; a trailing odd byte is ignored) and returns the stretches
    /// they end.
    public mutating func take(_ samples: UnsafeRawBufferPointer) -> [VoiceFrame] {
        var ended: [VoiceFrame] = []
        samples.forEachSample { sample in
            frame.append(sample)
            guard let speech = frames.take(sample) else { return }
            if let piece = endFrame(speech: speech) { ended.append(piece) }
        }
        return ended
    }

    /// Advances past `count` samples nobody hears: a stretch under way ends unsent.
    public mutating func skip(_ count: Int) {
        let skippedTo = position + UInt64(frame.count + count)
        if stretch != nil || !frame.isEmpty || !recent.isEmpty { reset() }
        position = skippedTo
    }

    /// The recording ended (sent, or continued as another): the stretch under way, its trailing quiet trimmed. The
    /// next samples are another recording's, from its start.
    public mutating func finish() -> VoiceFrame? {
        defer { reset() }
        guard let stretch, stretch.spoken > 0 else { return nil }
        return VoiceFrame(start: stretch.start, samples: Array((stretch.samples + frame).prefix(stretch.spoken + Self.margin)))
    }

    /// The recording was discarded: the frame that says so. The next samples are another recording's.
    public mutating func drop() -> VoiceFrame {
        defer { reset() }
        return VoiceFrame(start: position + UInt64(frame.count), samples: [])
    }

    private mutating func reset() {
        self = Self(threshold: threshold, silenceSeconds: silenceSeconds)
    }

    private mutating func endFrame(speech: Bool) -> VoiceFrame? {
        defer {
            position += UInt64(frame.count)
            frame.removeAll(keepingCapacity: true)
        }
        guard var current = stretch else {
            if speech {
                stretch = (position - UInt64(recent.count), recent + frame, recent.count + frame.count)
                quiet = 0
                recent = []
            } else {
                recent = Array((recent + frame).suffix(Self.margin))
            }
            return nil
        }
        current.samples += frame
        if speech {
            current.spoken = current.samples.count
            quiet = 0
        } else {
            quiet += frame.count
        }
        if quiet >= silenceSamples {
            stretch = nil
            let sent = min(current.samples.count, current.spoken + Self.margin)
            // The quiet after what is sent starts the next stretch: no sample is sent twice.
            recent = Array(current.samples[sent...].suffix(Self.margin))
            guard current.spoken > 0 else { return nil }
            return VoiceFrame(start: current.start, samples: Array(current.samples[..<sent]))
        }
        if current.samples.count >= Self.longest {
            stretch = (current.start + UInt64(current.samples.count), [], 0)
            return VoiceFrame(start: current.start, samples: current.samples)
        }
        stretch = current
        return nil
    }
}
