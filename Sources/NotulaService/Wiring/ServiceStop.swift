import Audio
import DBus
import Notifying
import Recording

/// The end: at SIGTERM/SIGINT, or when the name or the bus is lost, the recording in progress is kept, the output
/// unmuted, the name released and the live notification withdrawn.
enum ServiceStop {
    /// Returns the exit status once the first reason to stop came and everything was put away.
    static func awaitReason(
        _ bus: ServiceBus, signals: StopSignals, recorder: Recorder, outputMute: OutputMute, notifier: Notifier,
        sleepWatch: SleepWatch?
    ) async -> Int32 {
        let reason = await StopReason.first(on: bus.bus, losses: bus.losses, signals: signals)
        Log.info(reason.description)
        await keepRecording(recorder)
        await outputMute.restoreAtExit()
        if case .signal = reason { await NameOwnership.release(on: bus.bus) }
        await notifier.withdrawLive()
        await notifier.settle()
        await sleepWatch?.close()
        return reason.exitStatus
    }

    /// A recording in progress is kept, paused, with a complete WAV file, rather than lost with the
    /// process; its memo stays `recording`, so the next start recovers it and transcribes it. One being
    /// processed is left as it is: the next start transcribes it again.
    private static func keepRecording(_ recorder: Recorder) async {
        guard let kept = await recorder.keepForExit() else { return }
        Log.info(
            "Kept the recording in progress: memo \(kept.recording), \(kept.audio.duration) s in \(kept.audio.file); it is transcribed at the next start"
        )
    }
}
