import Models
import Recording

/// A speech engine, the one door the transcription services go through: it loads a locale's model, decodes a
/// recording's file with it or hears a recording as it is captured, and releases it. Vosk's is `VoskEngine`
/// (`Vosk/`); another engine is another folder with its own conformance, and no edit to the services.
///
/// Not thread-safe: the service's queue owns it. One model at a time, as a recording is transcribed in one locale.
public protocol SpeechEngine: AnyObject {
    /// The model recordings in `locale` use, loaded now unless it already is; another is released. What it takes in
    /// memory is told to the `ModelMemory` the engine was given.
    /// - Parameter named: a model of the locale to use instead of the chosen one.
    /// - Throws: `engineUnavailable` without the engine's library, `modelUnavailable` without that model on disk.
    func model(for locale: String, named: String?) throws(RecordingError) -> any LoadedSpeechModel
    /// Frees the model in memory, giving its pages back to the system.
    func release()
}

extension SpeechEngine {
    /// The model `locale` uses: the chosen one, else the best on disk.
    func model(for locale: String) throws(RecordingError) -> any LoadedSpeechModel { try model(for: locale, named: nil) }
}

/// A model an engine holds in memory, and the two ways it decodes.
public protocol LoadedSpeechModel {
    /// The model on disk it was loaded from.
    var installed: InstalledModel { get }
    /// A whole recording's file (16 kHz mono 16-bit PCM WAV) decoded; `isCancelled` is asked between blocks.
    /// - Throws: `.cancelled` once `isCancelled` says so, or why the file or the engine failed.
    func transcribe(wavFile path: String, unless isCancelled: () -> Bool) throws(SpeechError) -> Transcript
    /// A recording heard as its samples arrive.
    func hearing() throws(SpeechError) -> any SpeechStream
}

/// A recording being decoded as it is captured.
public protocol SpeechStream: AnyObject {
    /// Tells `hearing` what is made of the audio from now on.
    func follow(_ hearing: LiveHearing)
    /// Decodes the next samples.
    func append(_ samples: UnsafeBufferPointer<Int16>) throws(SpeechError)
    /// The transcript of everything appended.
    func finish() throws(SpeechError) -> Transcript
}
