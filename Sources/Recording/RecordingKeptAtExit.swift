/// A recording that was in progress when the service stopped: its audio, complete on disk.
public struct KeptRecording: Sendable, Equatable {
    public let recording: RecordingID
    public let audio: CapturedAudio
}

extension Recorder {
    /// Ends the recording in progress for the service's exit without processing it: the flow shows
    /// paused, the capture closes the file with a complete header, and the audio is handed back.
    ///
    /// Processing would transcribe, which can take minutes (or wait for a model's download) that a
    /// stopping service does not have: systemd kills what outlives its stop timeout.
    /// One being processed is left to its processing, not awaited: the caller decides what becomes of it.
    /// - Returns: the kept recording, or nil when none was in progress (or its capture never started).
    public func keepForExit() async -> KeptRecording? {
        guard state.isCapturing, let recording else {
            // Idle: what a discard queued (deleting the file) is carried out before the exit.
            if state == .idle { await settle() }
            return nil
        }
        if state == .recording { pauseRecording(because: .serviceStopped) }
        let audio = await withCheckedContinuation { continuation in
            steps.yield(.close(recording) { continuation.resume(returning: $0) })
        }
        return audio.map { KeptRecording(recording: recording, audio: $0) }
    }
}
