import Recording

/// What the memo service asks of transcription: the seam between a memo and the speech engine.
public protocol Transcribing: Sendable {
    /// The locale `recording` is transcribed in: the one picked when its capture started.
    func locale(of recording: RecordingID) -> String
    /// The text of a recording whose capture has ended: the one followed live, or else decoded from `file` in
    /// `locale` (nil: the recording's own), as recognised and as written. Cancelling the task stops the decoding.
    func text(of recording: RecordingID, file: String, in locale: String?) async throws(RecordingError) -> MemoText
    /// The text of a kept recording decoded again in `locale` by `model`, off the queue that follows recordings.
    func text(ofFile file: String, in locale: String, model: String) async throws(RecordingError) -> MemoText
}

/// What the memo service asks of the speech models.
public protocol ModelWaiting: Sendable {
    /// Returns once no installation of `locale`'s model is under way: a memo sent while its model downloads waits for it.
    func settled(_ locale: String) async
}
