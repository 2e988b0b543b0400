import Recording

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
    public nonisolated func captureStarted(_ recording: RecordingID, locale: String) {
        captureNews.yield(.started(recording, locale: locale))
    }
    public nonisolated func captured(_ samples: UnsafeRawBufferPointer, of recording: RecordingID) {}
    /// The memo learns of its end from `Processing`, with the file.
    public nonisolated func captureEnded(_ recording: RecordingID) {}
    public nonisolated func captureDropped(_ recording: RecordingID) { captureNews.yield(.dropped(recording)) }
    public nonisolated func captureContinued(_ previous: RecordingID, as next: RecordingID) {
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
