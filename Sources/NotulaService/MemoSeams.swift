import Memos
import Speech
import Recording

// What the memo service needs from the rest of notulad: transcription and the models.

extension Transcriber: Transcribing {
    public func text(of recording: RecordingID, file: String, in locale: String?) async throws(RecordingError) -> (
        text: String, words: [Word]
    ) {
        let transcript = try await transcript(of: recording, file: file, in: locale)
        return (transcript.text, transcript.words)
    }
}

extension ModelStore: ModelWaiting {}
