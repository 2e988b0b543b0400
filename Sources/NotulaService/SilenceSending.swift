import DBus
import Dictating
import Memos
import NotulaContract
import Recording

/// Sends a recording `SilenceEnding` found quiet long enough, as Process sends it, and says so with `EndedOnSilence`.
final class SilenceSending: SilenceListener {
    private let controls: any RecorderControls
    private let bus: Bus

    init(controls: any RecorderControls, bus: Bus) {
        self.controls = controls
        self.bus = bus
    }

    func quietLongEnough(_ recording: RecordingID) {
        let (controls, bus) = (controls, bus)
        Task { await Self.end(recording, controls: controls, bus: bus) }
    }

    /// Sends `recording` if it is still the one under way and not paused (the user may have acted meanwhile).
    private static func end(_ recording: RecordingID, controls: any RecorderControls, bus: Bus) async {
        guard let memo = try? await controls.perform(.process, whileRunning: recording)?.memo else { return }
        Log.info("Recording \(recording.rawValue) heard no speech for a while: sent")
        try? await bus.emit(
            path: NotulaBus.recorderPath, interface: NotulaBus.Recorder.self, signal: .endedOnSilence,
            arguments: [.objectPath(MemoLibrary.path(of: memo.rawValue))])
    }
}
