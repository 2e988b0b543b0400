import Recording
import Synchronization

/// The recorder's `SilenceSeconds`: a recording that heard speech and then none for that long is told to the
/// listener as quiet long enough (the wiring sends it, as Process does). It hears the captured samples beside the
/// transcriber. `Dictate` chooses the wait for one recording alone.
public final class SilenceEnding: CapturedAudioListener {
    /// 0 turns it off; ten minutes is the most anyone waits for a dictation to end.
    public static let range: ClosedRange<Double> = 0...600

    private struct Watch {
        var seconds: Double
        var detectors: [RecordingID: SilenceDetector] = [:]
        /// The waits `Dictate` chose for single recordings.
        var perRecording: [RecordingID: Double] = [:]
    }

    private let watch: Mutex<Watch>
    private let listener: any SilenceListener
    private let settings: any DictationSettingsListener

    /// - Parameter seconds: the wait, from `range`; 0 (off) by default.
    public init(seconds: Double = 0, listener: any SilenceListener, settings: any DictationSettingsListener) {
        watch = Mutex(Watch(seconds: seconds))
        self.listener = listener
        self.settings = settings
    }

    public var seconds: Double { watch.withLock { $0.seconds } }

    /// Takes effect at once, also for the recording under way.
    public func choose(_ seconds: Double) throws(WaitOutOfRange) {
        try Self.check(seconds, of: "SilenceSeconds")
        watch.withLock { $0.seconds = seconds }
        settings.settingChanged(.silenceSeconds(seconds))
    }

    /// `recording` ends after `seconds` without speech (0: never), whatever `SilenceSeconds` says.
    public func end(_ recording: RecordingID, after seconds: Double) {
        watch.withLock { $0.perRecording[recording] = seconds }
    }

    /// - Throws: `WaitOutOfRange` for a wait outside `range`, naming it `name`.
    public static func check(_ seconds: Double, of name: String) throws(WaitOutOfRange) {
        guard range.contains(seconds) else {
            throw WaitOutOfRange(message: "\(name) is from \(range.lowerBound) (off) to \(range.upperBound) seconds")
        }
    }

    /// One recording is captured at a time: what was kept for the ones before goes.
    public func captureStarted(_ recording: RecordingID, locale: String) {
        watch.withLock { watch in
            watch.detectors = [recording: SilenceDetector()]
            watch.perRecording = watch.perRecording.filter { $0.key == recording }
        }
    }

    public func captured(_ samples: UnsafeRawBufferPointer, of recording: RecordingID) {
        let quiet = watch.withLock { watch -> Bool in
            guard var detector = watch.detectors[recording] else { return false }
            let quiet = detector.hear(samples, silence: watch.perRecording[recording] ?? watch.seconds)
            // Heard once: the recording ends, and whatever comes after is not heard again.
            watch.detectors[recording] = quiet ? nil : detector
            return quiet
        }
        if quiet { listener.quietLongEnough(recording) }
    }

    /// A sent recording's detector goes at the next start.
    public func captureEnded(_ recording: RecordingID) {}

    public func captureDropped(_ recording: RecordingID) {
        watch.withLock { watch in
            watch.detectors[recording] = nil
            watch.perRecording[recording] = nil
        }
    }

    /// The length limit split the recording: the quiet goes on being counted in the next memo.
    public func captureContinued(_ previous: RecordingID, as next: RecordingID) {
        watch.withLock { watch in
            watch.detectors[next] = watch.detectors.removeValue(forKey: previous)
            watch.perRecording[next] = watch.perRecording.removeValue(forKey: previous)
        }
    }
}

/// Hears that a recording heard speech and then quiet for as long as chosen; told once a recording, on the capture's
/// writer queue.
public protocol SilenceListener: Sendable {
    func quietLongEnough(_ recording: RecordingID)
}

/// A wait for silence outside `SilenceEnding.range`.
public struct WaitOutOfRange: Error, Equatable {
    public let message: String
}
