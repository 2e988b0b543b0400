// A recording longer than a memo may be (what a WAV file holds, 4 GiB or 37 hours, or the user's
// own limit) goes on as a new memo without a gap: the capture ends the first file at the limit
// and writes on into the next, and the first part is processed as a memo of its own meanwhile.
extension Recorder {
    /// The capture's file of `id` is full: the recording in progress is a new one from here on.
    func continueAsNewMemo(_ id: RecordingID) {
        guard recording == id, state.isCapturing else { return }
        let next = makeRecordingID()
        recording = next
        steps.yield(.split(id, next: next))
    }

    /// The first part's file is complete: the timer counts the second part's audio only, and the
    /// first part is processed beside the recording, beyond the reach of a discard of the second.
    func continued(_ id: RecordingID, as next: RecordingID, after first: CapturedAudio) {
        if recording == next {
            timer.drop(.seconds(first.duration))
            report()
        }
        let processing = self.processing
        let locale = failureLocale
        Task {
            do throws(RecordingError) {
                try await processing.process(first, recording: id)
                reporter.processed(id)
            } catch {
                reporter.failed(error, locale: locale)
            }
        }
    }

    /// There is no file for the rest (a full disk): the recording is the first one still, paused
    /// as a full disk pauses it, and a resume meets the limit and tries again. Sent meanwhile, the
    /// recording is processed under the second id, with the first part's file.
    func splitFailed(_ id: RecordingID, as next: RecordingID, _ error: RecordingError) {
        guard recording == next, state.isCapturing else {
            return reporter.failed(error, locale: failureLocale)
        }
        recording = id
        captureLost(id, error)
    }
}
