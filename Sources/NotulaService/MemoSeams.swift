import Memos
import Recording

// What the memo service needs from the rest of notulad: transcription, the models, the log.

extension Transcriber: Transcribing {
    func text(of recording: RecordingID, file: String, in locale: String?) async throws(RecordingError) -> (
        text: String, words: [Word]
    ) {
        let transcript = try await transcript(of: recording, file: file, in: locale)
        return (transcript.text, transcript.words)
    }
}

extension ModelStore: ModelWaiting {}

extension MemoLog {
    /// The memo service's lines in the service's log.
    static let service = MemoLog(error: { Log.error($0) }, warning: { Log.warning($0) }, info: { Log.info($0) })
}
