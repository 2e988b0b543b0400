extension SpeechModel {
    /// Transcribes a recording: a 16 kHz mono 16-bit PCM WAV file, as Notula records.
    ///
    /// The file is read a block at a time, so memory stays flat whatever the recording's length, and decoded as
    /// `BlockRecognition` decodes a recording streamed while captured. Each call uses a recognizer of its own, so
    /// calls may run concurrently on one model.
    /// - Parameters:
    ///   - path: The WAV file.
    ///   - isCancelled: Asked before each block (50 ms of audio, a few ms to decode): a long file's decoding,
    ///     minutes of CPU, stops as soon as nobody waits for it.
    /// - Returns: The transcript of the whole file; empty for silence.
    /// - Throws: `.audioUnreadable` or `.unsupportedAudio` for the file, `.recognitionFailed` when libvosk fails,
    ///   `.cancelled` once `isCancelled` says so.
    public func transcribe(wavFile path: String, unless isCancelled: () -> Bool = { false }) throws(SpeechError) -> Transcript {
        var samples = try WAVSamples(path: path)
        let recognition = try BlockRecognition(model: self)
        var block = [Int16](repeating: 0, count: BlockRecognition.blockSamples)
        while true {
            guard !isCancelled() else { throw .cancelled }
            let count = try block.withUnsafeMutableBufferPointer { buffer in
                Result { () throws(SpeechError) in try samples.read(into: buffer) }
            }.get()
            guard count > 0 else { break }
            try block.withUnsafeBufferPointer { buffer in
                Result { () throws(SpeechError) in try recognition.append(UnsafeBufferPointer(rebasing: buffer[..<count])) }
            }.get()
        }
        return try recognition.finish()
    }
}
