/// Takes a finished recording over from the capture: the next step of the flow
/// (a memo now, a transcription later). From here on the file is this service's.
public protocol Processing: Sendable {
    /// Turns the captured audio into the memo of `recording`; cancelled when the user discards it.
    func process(_ audio: CapturedAudio, recording: RecordingID) async throws(RecordingError)
    /// Deletes the audio of a recording discarded after its capture ended.
    func discard(_ audio: CapturedAudio) async
}

/// What the flow looks like at one moment.
public struct RecorderSnapshot: Sendable, Equatable {
    public let state: RecordingState
    /// Recorded time, pauses not counted.
    public let elapsed: Duration
    /// While recording, the clock reading from which a timer counting up shows `elapsed`.
    public let timerAnchor: Duration?
    public let recording: RecordingID?
    /// Why the recording is paused; nil unless paused.
    public let pauseReason: PauseReason?

    public init(
        state: RecordingState, elapsed: Duration, timerAnchor: Duration?, recording: RecordingID?, pauseReason: PauseReason? = nil
    ) {
        self.state = state
        self.elapsed = elapsed
        self.timerAnchor = timerAnchor
        self.recording = recording
        self.pauseReason = pauseReason
    }
}

/// Surfaces the flow outside the recorder: the bus object, notifications, panels.
/// Called synchronously, in transition order, on the recorder's executor.
public protocol Reporting: Sendable {
    func stateChanged(_ snapshot: RecorderSnapshot)
    /// The timer of a running recording started once the input was open: Elapsed and TimerAnchor changed, not State.
    func timerStarted(_ snapshot: RecorderSnapshot)
    func processed(_ recording: RecordingID)
    /// A failure no caller is waiting for (the capture was lost, processing failed), of a recording
    /// transcribed in `locale` (the one it started in, whatever the user picked since).
    func failed(_ error: RecordingError, locale: String)
    /// The recording goes on from another source than it started from (its own went away).
    func inputMoved(to source: String)
}
