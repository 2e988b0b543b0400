import DBus
import Memos
import NotulaContract
import Recording
import Synchronization

/// The recorder's `SilenceSeconds`: a recording that heard speech and then none for that long is sent, as Process
/// sends it, and `EndedOnSilence` says so. It hears the captured samples beside the transcriber.
final class SilenceEnding: CapturedAudioListener {
    /// 0 turns it off; ten minutes is the most anyone waits for a dictation to end.
    static let range: ClosedRange<Double> = 0...600

    private struct Watch {
        var seconds: Double
        var detectors: [RecordingID: SilenceDetector] = [:]
        var recorder: Recorder?
    }

    private let watch: Mutex<Watch>
    private let settingsFile: String
    private let bus: Bus

    init(_ settings: Settings, settingsFile: String, bus: Bus) {
        watch = Mutex(Watch(seconds: settings.silenceSeconds ?? 0))
        self.settingsFile = settingsFile
        self.bus = bus
    }

    /// The recorder whose recordings it sends; nothing is sent before.
    func start(ending recorder: Recorder) { watch.withLock { $0.recorder = recorder } }

    var seconds: Double { watch.withLock { $0.seconds } }

    /// Takes effect at once, also for the recording under way.
    func choose(_ seconds: Double) throws(BusError) {
        guard Self.range.contains(seconds) else {
            throw BusError.invalidArgs("SilenceSeconds is from \(Self.range.lowerBound) (off) to \(Self.range.upperBound)")
        }
        watch.withLock { $0.seconds = seconds }
        Settings.update(at: settingsFile) { $0.silenceSeconds = seconds }
    }

    func captureStarted(_ recording: RecordingID, locale: String) {
        watch.withLock { $0.detectors[recording] = SilenceDetector() }
    }

    func captured(_ samples: UnsafeRawBufferPointer, of recording: RecordingID) {
        let recorder = watch.withLock { watch -> Recorder? in
            guard var detector = watch.detectors[recording] else { return nil }
            let quiet = detector.hear(samples, silence: watch.seconds)
            // Heard once: the recording ends, and whatever comes after is not heard again.
            watch.detectors[recording] = quiet ? nil : detector
            return quiet ? watch.recorder : nil
        }
        guard let recorder else { return }
        let bus = bus
        Task { await Self.end(recording, recorder: recorder, bus: bus) }
    }

    func captureDropped(_ recording: RecordingID) { watch.withLock { $0.detectors[recording] = nil } }

    /// The length limit split the recording: the quiet goes on being counted in the next memo.
    func captureContinued(_ previous: RecordingID, as next: RecordingID) {
        watch.withLock { $0.detectors[next] = $0.detectors.removeValue(forKey: previous) }
    }

    /// Sends `recording` if it is still the one under way and not paused (the user may have acted meanwhile).
    private static func end(_ recording: RecordingID, recorder: isolated Recorder, bus: Bus) {
        guard recorder.recording == recording, recorder.state == .recording else { return }
        guard let memo = try? recorder.perform(.process, for: .nobody).memo else { return }
        Log.info("Recording \(recording.rawValue) heard no speech for a while: sent")
        bus.assumeIsolated {
            try? $0.emit(
                path: NotulaBus.recorderPath, interface: NotulaBus.Recorder.self, signal: .endedOnSilence,
                arguments: [.objectPath(MemoLibrary.path(of: memo.rawValue))])
        }
    }
}
