import Memos
import Recording
import Speech
import Writing

// What the memo service needs from the rest of notulad: transcription and the models.

/// How recognised words are written in a locale: its spoken punctuation and the user's replacements, as the
/// replacements file says at the time.
struct TextWriting: Sendable {
    let replacements: ReplacementsFile

    func writing(in locale: String) -> DictatedText {
        let path = replacements.path
        return DictatedText(locale: locale, replacements: replacements.current { Log.warning("\(path): \($0); the line is skipped") })
    }
}

/// The transcriber's text, also as written.
struct WrittenTranscription: Transcribing {
    let transcriber: Transcriber
    let writing: TextWriting

    func locale(of recording: RecordingID) -> String { transcriber.locale(of: recording) }

    func text(of recording: RecordingID, file: String, in locale: String?) async throws(RecordingError) -> (
        text: String, words: [Word], written: String
    ) {
        let transcript = try await transcriber.transcript(of: recording, file: file, in: locale)
        let written = writing.writing(in: locale ?? transcriber.locale(of: recording))
            .write(transcript.text.split(separator: " ").map(String.init))
        return (transcript.text, transcript.words, written)
    }
}

extension ModelStore: ModelWaiting {}
