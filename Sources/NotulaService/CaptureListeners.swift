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
    func captureDropped(_ recording: RecordingID) { listeners.forEach { $0.captureDropped(recording) } }
    func captureContinued(_ previous: RecordingID, as next: RecordingID) {
        listeners.forEach { $0.captureContinued(previous, as: next) }
    }
}

/// What the library hears of the capture.
enum CaptureNews: Sendable {
    case started(RecordingID, locale: String)
    case dropped(RecordingID)
    case continued(RecordingID, as: RecordingID)
}

/// The library hears of a recording's start on the capture's thread, which must not wait: the news
/// is queued and handled on the library's own executor, one at a time in the order it came, so
/// that a discard's `dropped` never runs before the `started` that writes the row.
extension MemoLibrary: CapturedAudioListener {
    nonisolated func captureStarted(_ recording: RecordingID, locale: String) {
        captureNews.yield(.started(recording, locale: locale))
    }
    nonisolated func captured(_ samples: UnsafeRawBufferPointer, of recording: RecordingID) {}
    nonisolated func captureDropped(_ recording: RecordingID) { captureNews.yield(.dropped(recording)) }
    nonisolated func captureContinued(_ previous: RecordingID, as next: RecordingID) {
        captureNews.yield(.continued(previous, as: next))
    }

    func take(_ news: CaptureNews) {
        switch news {
        case .started(let recording, let locale):
            current = recording.rawValue
            recordingStarted(recording, locale: locale)
        case .dropped(let recording): recordingDropped(recording)
        case .continued(let previous, let next):
            Log.info("Recording \(previous) is as long as a memo may be: it goes on as memo \(next)")
            current = next.rawValue
            recordingStarted(next, locale: transcriber.locale(of: next))
        }
    }
}
