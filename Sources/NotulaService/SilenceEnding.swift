import DBus
import Memos
import NotulaContract
import Recording
import Synchronization

/// The recorder's `SilenceSeconds`: a recording that heard speech and then none for that long is sent, as Process
/// sends it, and `EndedOnSilence` says so. It hears the captured samples beside the transcriber. `Dictate` chooses
/// the wait for one recording alone.
final class SilenceEnding: CapturedAudioListener {
    /// 0 turns it off; ten minutes is the most anyone waits for a dictation to end.
    static let range: ClosedRange<Double> = 0...600

    private struct Watch {
        var seconds: Double
        var detectors: [RecordingID: SilenceDetector] = [:]
        /// The waits `Dictate` chose for single recordings.
        var perRecording: [RecordingID: Double] = [:]
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
        try Self.check(seconds, of: "SilenceSeconds")
        watch.withLock { $0.seconds = seconds }
        Settings.update(at: settingsFile) { $0.silenceSeconds = seconds }
    }

    /// `recording` is sent after `seconds` without speech (0: never), whatever `SilenceSeconds` says.
    func end(_ recording: RecordingID, after seconds: Double) {
        watch.withLock { $0.perRecording[recording] = seconds }
    }

    /// - Throws: `InvalidArgs` for a wait outside `range`.
    static func check(_ seconds: Double, of name: String) throws(BusError) {
        guard range.contains(seconds) else {
            throw BusError.invalidArgs("\(name) is from \(range.lowerBound) (off) to \(range.upperBound) seconds")
        }
    }

    /// One recording is captured at a time: what was kept for the ones before goes.
    func captureStarted(_ recording: RecordingID, locale: String) {
        watch.withLock { watch in
            watch.detectors = [recording: SilenceDetector()]
            watch.perRecording = watch.perRecording.filter { $0.key == recording }
        }
    }

    func captured(_ samples: UnsafeRawBufferPointer, of recording: RecordingID) {
        let recorder = watch.withLock { watch -> Recorder? in
            guard var detector = watch.detectors[recording] else { return nil }
            let quiet = detector.hear(samples, silence: watch.perRecording[recording] ?? watch.seconds)
            // Heard once: the recording ends, and whatever comes after is not heard again.
            watch.detectors[recording] = quiet ? nil : detector
            return quiet ? watch.recorder : nil
        }
        guard let recorder else { return }
        let bus = bus
        Task { await Self.end(recording, recorder: recorder, bus: bus) }
    }

    /// A sent recording's detector goes at the next start.
    func captureEnded(_ recording: RecordingID) {}

    func captureDropped(_ recording: RecordingID) {
        watch.withLock { watch in
            watch.detectors[recording] = nil
            watch.perRecording[recording] = nil
        }
    }

    /// The length limit split the recording: the quiet goes on being counted in the next memo.
    func captureContinued(_ previous: RecordingID, as next: RecordingID) {
        watch.withLock { watch in
            watch.detectors[next] = watch.detectors.removeValue(forKey: previous)
            watch.perRecording[next] = watch.perRecording.removeValue(forKey: previous)
        }
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
