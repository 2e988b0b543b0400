import Dictating
import Memos
import Models
import Recording
import Speech
import Writing

// What the memo service needs from the rest of notulad: transcription and the models.

extension TextWriting {
    /// `transcript` as a memo keeps it, written as `locale` writes.
    func memoText(_ transcript: Transcript, in locale: String) -> MemoText {
        let written = writing(in: locale).write(transcript.text.split(separator: " ").map(String.init))
        let revision = transcript.revision.map { revision in
            MemoRevision(
                pending: revision.pending, completed: { memoText(await revision.completed, in: locale) }, cancel: revision.cancel)
        }
        return MemoText(
            text: transcript.text, words: transcript.words, written: written, model: transcript.model,
            utteranceModels: transcript.utteranceModels, revision: revision)
    }
}

/// The transcriber's text, also as written.
struct WrittenTranscription: Transcribing {
    let transcriber: Transcriber
    let again: Retranscriber
    let writing: TextWriting

    func locale(of recording: RecordingID) -> String { transcriber.locale(of: recording) }

    func text(of recording: RecordingID, file: String, in locale: String?) async throws(RecordingError) -> MemoText {
        let transcript = try await transcriber.transcript(of: recording, file: file, in: locale)
        return writing.memoText(transcript, in: locale ?? transcriber.locale(of: recording))
    }

    func text(ofFile file: String, in locale: String, model: String) async throws(RecordingError) -> MemoText {
        writing.memoText(try await again.transcript(ofFile: file, in: locale, model: model), in: locale)
    }
}

extension ModelStore: ModelWaiting {}
