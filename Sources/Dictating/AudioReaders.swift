import Recording
import Speech
import Synchronization

/// The recordings' audio for the clients that asked (`OpenAudio`), as it is captured, each on a pipe of its own in the
/// form it chose. It hears the samples beside the transcriber, on the capture's writer queue: paused time brings none.
public final class AudioReaders: CapturedAudioListener {
    /// Readers at once, all clients together: each costs a pipe and a copy of every sample.
    public static let mostReaders = 8
    /// Louder than this is speech in `vad` (dBFS), when settings.json does not say.
    public static let defaultThreshold = -40.0
    public static let thresholdRange: ClosedRange<Double> = -90...0
    /// The quiet that ends a stretch in `vad`, when settings.json does not say.
    public static let defaultSilenceSeconds = 0.8
    public static let silenceRange: ClosedRange<Double> = 0.1...30

    private let readers: PipeReaders<AudioForm>
    private let stretches: Mutex<any VoiceStretching>

    /// - Parameters:
    ///   - threshold: louder than this is speech in `vad` (dBFS, from `thresholdRange`), when Silero does not hear it.
    ///   - silenceSeconds: the quiet that ends a stretch in `vad` (from `silenceRange`).
    ///   - voiceDetection: Silero's detector, which hears the speech in `vad` instead of the level; nil for the level.
    ///   - changes: told when a reader comes or goes.
    public init(
        threshold: Double = AudioReaders.defaultThreshold, silenceSeconds: Double = AudioReaders.defaultSilenceSeconds,
        voiceDetection: VoiceDetection? = nil, changes: ListenerChanges? = nil
    ) {
        readers = PipeReaders(of: .audio, mostReaders: Self.mostReaders, changes: changes)
        if let voiceDetection {
            stretches = Mutex(SileroStretches(voiceDetection.endingAfter(silence: silenceSeconds)))
        } else {
            stretches = Mutex(VoiceStretches(threshold: threshold, silenceSeconds: silenceSeconds))
        }
    }

    /// Who reads the live audio now.
    public var listeners: [Listener] { readers.listeners }

    /// A new reader for `caller`: the read end of a pipe (close-on-exec, the caller's to own) on which the audio of the
    /// recording under way, from now on, and of those after it arrives in `form`, until the reader closes it.
    /// - Throws: `ReaderError.tooMany` when `mostReaders` read already, `.noPipe` when no pipe can be made.
    public func newReader(for caller: Caller, form: AudioForm) throws(ReaderError) -> Int32 {
        try readers.newReader(for: caller, form: form)
    }

    public func captureStarted(_ recording: RecordingID, locale: String) {}

    public func captured(_ samples: UnsafeRawBufferPointer, of recording: RecordingID) {
        let forms = readers.forms
        // Stretches are found only while somebody reads them; the position in the recording is kept regardless.
        let voice = stretches.withLock { stretches in
            guard forms.contains(.vad) else {
                stretches.skip(samples.count / 2)
                return [UInt8]()
            }
            return stretches.stretches(in: samples).flatMap(\.encoded)
        }
        guard !forms.isEmpty else { return }
        // Each form made once, however many read it.
        var bytes: [AudioForm: [UInt8]] = [.vad: voice]
        if forms.contains(.s16le) { bytes[.s16le] = Array(samples) }
        if forms.contains(.f32le) { bytes[.f32le] = Self.floats(samples) }
        readers.send { bytes[$0] }
    }

    public func captureEnded(_ recording: RecordingID) {
        let last = stretches.withLock { $0.ended() }.flatMap(\.encoded)
        if !last.isEmpty { readers.send { $0 == .vad ? last : nil } }
    }

    public func captureDropped(_ recording: RecordingID) {
        let marker = stretches.withLock { $0.dropped() }.encoded
        readers.send { $0 == .vad ? marker : nil }
    }

    /// The stretch under way ends with the memo, and the next memo's times start from 0.
    public func captureContinued(_ previous: RecordingID, as next: RecordingID) { captureEnded(previous) }

    /// Signed 16-bit samples as 32-bit floats from −1 to 1, little-endian.
    private static func floats(_ samples: UnsafeRawBufferPointer) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(samples.count * 2)
        samples.forEachSample { sample in
            let bits = (Float(sample) / 32_768).bitPattern
            for shift in stride(from: 0, to: 32, by: 8) { bytes.append(UInt8(truncatingIfNeeded: bits >> shift)) }
        }
        return bytes
    }
}
