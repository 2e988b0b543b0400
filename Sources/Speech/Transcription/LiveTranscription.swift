import Recording

/// The recording being captured, decoded as its samples arrive.
struct LiveTranscription {
    let recording: RecordingID
    let locale: String
    /// The name of the model that decodes it.
    let model: String
    /// Nil when the model could not be loaded at the start, or decoding failed: the file is transcribed instead.
    var recognition: BlockRecognition?

    /// Decodes the next samples (16-bit little-endian bytes); a decoding failure leaves the recording to its file.
    mutating func append(_ bytes: [UInt8]) {
        guard let recognition else { return }
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

    /// The transcript of everything appended, or nil when the recording must be transcribed from its file.
    func finish() -> Transcript? {
        guard var transcript = try? recognition?.finish() else { return nil }
        transcript.model = model
        return transcript
    }
}
