import Recording

/// Tells a panel each new state of the recorder: all a panel takes from the flow (results and failures are the
/// notifications' to tell). Called synchronously, on the recorder's executor, which the panels share.
public struct PanelReporter: Reporting {
    let show: @Sendable (RecorderSnapshot) -> Void

    public init(show: @escaping @Sendable (RecorderSnapshot) -> Void) { self.show = show }

    public func stateChanged(_ snapshot: RecorderSnapshot) { show(snapshot) }
    /// The time a panel shows counts from the anchor this sets.
    public func timerStarted(_ snapshot: RecorderSnapshot) { show(snapshot) }
    public func processed(_ recording: RecordingID) {}
    public func failed(_ error: RecordingError, locale: String) {}
    public func inputMoved(to source: String) {}
}
