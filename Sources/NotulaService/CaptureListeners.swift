import Recording

/// Hands the capture's news to several listeners, in order: the transcriber first, since it
/// picks the recording's locale, then the library, which keeps that locale in the memo's row.
struct CaptureListeners: CapturedAudioListener {
    let listeners: [any CapturedAudioListener]
    init(_ listeners: [any CapturedAudioListener]) { self.listeners = listeners }

    func captureStarted(_ recording: RecordingID) { listeners.forEach { $0.captureStarted(recording) } }
    func captured(_ samples: UnsafeRawBufferPointer, of recording: RecordingID) {
        listeners.forEach { $0.captured(samples, of: recording) }
    }
    func captureDropped(_ recording: RecordingID) { listeners.forEach { $0.captureDropped(recording) } }
    func captureContinued(_ previous: RecordingID, as next: RecordingID) {
        listeners.forEach { $0.captureContinued(previous, as: next) }
    }
}

/// The library hears of a recording's start on the capture's thread, which must not wait: the
/// row is written on the library's own executor right after.
extension MemoLibrary: CapturedAudioListener {
    nonisolated func captureStarted(_ recording: RecordingID) { Task { await recordingStarted(recording) } }
    nonisolated func captured(_ samples: UnsafeRawBufferPointer, of recording: RecordingID) {}
    nonisolated func captureDropped(_ recording: RecordingID) { Task { await recordingDropped(recording) } }
    nonisolated func captureContinued(_ previous: RecordingID, as next: RecordingID) {
        Log.info("Recording \(previous) is as long as a memo may be: it goes on as memo \(next)")
        Task { await recordingStarted(next) }
    }
}
