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
    }

    private let watch: Mutex<Watch>
    private let settingsFile: String
    private let bus: Bus
    /// What sends a quiet recording.
    private let controls: any RecorderControls

    init(_ settings: Settings, settingsFile: String, bus: Bus, controls: any RecorderControls) {
        watch = Mutex(Watch(seconds: settings.silenceSeconds ?? 0))
        self.settingsFile = settingsFile
        self.bus = bus
        self.controls = controls
    }

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
        let quiet = watch.withLock { watch -> Bool in
            guard var detector = watch.detectors[recording] else { return false }
            let quiet = detector.hear(samples, silence: watch.perRecording[recording] ?? watch.seconds)
            // Heard once: the recording ends, and whatever comes after is not heard again.
            watch.detectors[recording] = quiet ? nil : detector
            return quiet
        }
        guard quiet else { return }
        Task { await end(recording) }
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
    private func end(_ recording: RecordingID) async {
        guard let memo = try? await controls.perform(.process, whileRunning: recording)?.memo else { return }
        Log.info("Recording \(recording.rawValue) heard no speech for a while: sent")
        try? await bus.emit(
            path: NotulaBus.recorderPath, interface: NotulaBus.Recorder.self, signal: .endedOnSilence,
            arguments: [.objectPath(MemoLibrary.path(of: memo.rawValue))])
    }
}
