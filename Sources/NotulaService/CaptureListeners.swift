import Recording

/// Hands the capture's news to several listeners, in order: the transcriber first, then the library,
/// which keeps the recording's locale in the memo's row.
struct CaptureListeners: CapturedAudioListener {
    let listeners: [any CapturedAudioListener]
    init(_ listeners: [any CapturedAudioListener]) { self.listeners = listeners }

    func captureStarted(_ recording: RecordingID, locale: String) {
        listeners.forEach { $0.captureStarted(recording, locale: locale) }
    }
    func captured(_ samples: UnsafeRawBufferPointer, of recording: RecordingID) {
        listeners.forEach { $0.captured(samples, of: recording) }
    }
    func captureEnded(_ recording: RecordingID) { listeners.forEach { $0.captureEnded(recording) } }
    func captureDropped(_ recording: RecordingID) { listeners.forEach { $0.captureDropped(recording) } }
    func captureContinued(_ previous: RecordingID, as next: RecordingID) {
        listeners.forEach { $0.captureContinued(previous, as: next) }
    }
}
