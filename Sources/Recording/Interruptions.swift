// Interruptions pause a recording exactly as Pause does, noting why. Only the end of a call
// gives a recording back, and only one the call paused that nobody touched since: a recording
// the user paused, or took over while it was paused (Pause, Resume, Toggle), stays theirs.
extension Recorder {
    /// Something outside the flow interrupts it: a running recording pauses. A recording paused
    /// for a call that then sleeps is paused for sleep: waking is no sign to resume it.
    public func interrupt(_ interruption: Interruption) {
        switch state {
        case .recording:
            pauseRecording(because: interruption.pauseReason)
        case .paused where pauseReason == .call && interruption == .sleep:
            pauseReason = .sleep
            report()
        case .idle, .paused, .processing:
            return
        }
    }

    /// The interruption is over: a recording it paused resumes, if there is room on the disk.
    public func interruptionEnded(_ interruption: Interruption) {
        guard state == .paused, pauseReason == interruption.pauseReason, interruption == .call else { return }
        guard (try? capture.checkSpace()) != nil else { return }
        resumeRecording()
    }
}
