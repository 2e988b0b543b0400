import Recording

/// Every surface that reports the flow, told in the order listed: the bus signals first, so that
/// a notification never shows a state the recorder object does not have yet.
struct Reporters: Reporting {
    let surfaces: [any Reporting]

    func stateChanged(_ snapshot: RecorderSnapshot) { surfaces.forEach { $0.stateChanged(snapshot) } }
    func timerStarted(_ snapshot: RecorderSnapshot) { surfaces.forEach { $0.timerStarted(snapshot) } }
    func processed(_ recording: RecordingID) { surfaces.forEach { $0.processed(recording) } }
    func failed(_ error: RecordingError, locale: String) { surfaces.forEach { $0.failed(error, locale: locale) } }
    func inputMoved(to source: String) { surfaces.forEach { $0.inputMoved(to: source) } }
}
