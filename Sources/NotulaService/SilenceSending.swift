import DBus
import Dictating
import Memos
import NotulaContract
import Recording
import Synchronization

/// Sends a recording `SilenceEnding` found quiet long enough, as Process sends it, and says so with `EndedOnSilence`.
final class SilenceSending: SilenceListener {
    private let recorder = Mutex<Recorder?>(nil)
    private let bus: Bus

    init(bus: Bus) { self.bus = bus }

    /// The recorder whose recordings it sends; nothing is sent before.
    func start(ending recorder: Recorder) { self.recorder.withLock { $0 = recorder } }

    func quietLongEnough(_ recording: RecordingID) {
        guard let recorder = recorder.withLock({ $0 }) else { return }
        let bus = bus
        Task { await Self.end(recording, recorder: recorder, bus: bus) }
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
