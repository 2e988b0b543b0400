import Recording

/// The recording being captured, decoded as its samples arrive.
struct LiveTranscription {
    let recording: RecordingID
    let locale: String
    /// The name of the model that decodes it.
    let model: String
    /// Nil when the model could not be loaded at the start, or decoding failed: the file is transcribed instead.
    var recognition: (any SpeechStream)?
    /// The Whisper pass over each utterance, and the audio it takes them from; nil without one.
    var accurate: (pass: AccuratePass, audio: UtteranceAudio)?
    /// Where utterances end when the accurate pass's model follows the recording alone (no Vosk model serves its locale).
    var cutter: (any UtteranceEnding)?
    /// Where Silero hears speech, when the live model's words are the memo's with no accurate pass to write them again.
    var speechStretches: SpeechStretches?
    /// Where the speaker pauses, for the accurate pass to decode the utterance under way ahead.
    var pauses = UtteranceCutter(silence: AccuratePass.aheadPause, longest: .infinity)

    /// Decodes the next samples (16-bit little-endian bytes); a decoding failure leaves the recording to its file.
    mutating func append(_ bytes: [UInt8]) {
        // Without a model that ends utterances there is nothing for the pass to decode: the file is transcribed instead.
        if let (pass, audio) = accurate, cutter != nil || recognition != nil {
            audio.append(bytes)
            if pass.decodesAhead { for pause in pauses.take(bytes) { pass.paused(pause, of: audio) } }
            if cutter != nil {
                for utterance in cutter?.take(bytes) ?? [] { pass.add(Transcript(), from: utterance.start, to: utterance.end, of: audio) }
                return
            }
        }
        guard let recognition else { return }
        speechStretches?.take(bytes)
        let failure = bytes.withUnsafeBytes { raw in
            raw.withMemoryRebound(to: Int16.self) { samples in
                Result { () throws(SpeechError) in try recognition.append(samples) }
            }
        }
        if case .failure(let error) = failure {
            Log.warning("Transcribing \(recording) while recording failed (\(error.message)); it is transcribed from its file instead")
            self.recognition = nil
        }
    }

    /// The transcript of everything appended, or nil when the recording must be transcribed from its file; with the
    /// accurate pass, the utterance still under way is queued for it, which the caller finishes.
    mutating func finish() -> Streamed? {
        if let (pass, audio) = accurate {
            // Decoded at once, while Vosk ends its last utterance.
            if pass.decodesAhead { for rest in pauses.rest() { pass.paused(rest, of: audio) } }
            pass.sent()
        }
        if let (pass, audio) = accurate, cutter != nil {
            for last in cutter?.rest() ?? [] { pass.add(Transcript(), from: last.start, to: last.end, of: audio) }
            return Streamed(transcript: Transcript(model: pass.model.installed.name), accurate: pass)
        }
        guard var transcript = try? recognition?.finish() else {
            accurate?.pass.cancel()
            return nil
        }
        transcript.model = model
        if var heard = speechStretches {
            let written = transcript.words.count
            transcript = heard.keepingSpeech(of: transcript)
            if transcript.words.count < written {
                Log.info("Recording \(recording): \(written - transcript.words.count) of \(written) words written where Silero heard no speech left out")
            }
        }
        if let (pass, audio) = accurate {
            // The last utterance's words are those after the ones already queued.
            let queued = pass.queuedWordCount
            let last = Transcript(words: Array(transcript.words.dropFirst(queued)))
            if let first = last.words.first, let end = last.words.last?.end { pass.add(last, from: first.start, to: end, of: audio) }
        }
        return Streamed(transcript: transcript, accurate: accurate?.pass)
    }

    /// A recording's text decoded while it was captured, and the accurate pass still to finish.
    struct Streamed {
        var transcript: Transcript
        let accurate: AccuratePass?
    }
}
