import Models
import Recording

/// A speech engine, the one door the transcription services go through: it loads a locale's model, decodes a
/// recording's file with it, hears a recording as it is captured or decodes it utterance by utterance, and releases
/// it. Vosk's is `VoskEngine` (`Vosk/`), Whisper's `WhisperEngine` (`Whisper/`); another engine is another folder
/// with its own conformance, and no edit to the services.
///
/// Not thread-safe unless it says so: the service's queue owns it. One model at a time, as a recording is transcribed
/// in one locale.
public protocol SpeechEngine: AnyObject {
    /// Whether `model` is one this engine loads: the services pick the engine of a model the user names by it.
    func loads(_ model: InstalledModel) -> Bool
    /// What a model costs while this engine holds it.
    var cost: EngineCost { get }
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

/// What an engine's model costs, for the callers that budget memory and cores: a service that holds a second engine
/// beside the live one (`Retranscriber`) doubles what `memory` says for its time.
public struct EngineCost: Sendable, Equatable {
    /// Where a loaded model's memory is taken.
    public enum Memory: Sendable, Equatable {
        /// In notulad, for as long as the engine holds it: hundreds of MB (`ModelMemory` has what each took).
        case inProcess
        /// In a helper process of its own, which gives it back when it ends, idle; a crash there leaves notulad be.
        case inHelper
    }

    public let memory: Memory
    /// The cores one decoding keeps busy.
    public let cores: Int

    public init(memory: Memory, cores: Int) {
        self.memory = memory
        self.cores = cores
    }
}

/// A model an engine holds, and the ways it decodes: a whole file always; then either a stream, heard as it is
/// captured (`hearing`), or utterances one at a time, apart from the recording (`utterances`).
public protocol LoadedSpeechModel {
    /// The model on disk it was loaded from.
    var installed: InstalledModel { get }
    /// A whole recording's file (16 kHz mono 16-bit PCM WAV) decoded; `isCancelled` is asked between blocks.
    /// - Throws: `.cancelled` once `isCancelled` says so, or why the file or the engine failed.
    func transcribe(wavFile path: String, unless isCancelled: () -> Bool) throws(SpeechError) -> Transcript
    /// A recording heard as its samples arrive; nil for an engine that does not follow a stream.
    func hearing() throws(SpeechError) -> (any SpeechStream)?
    /// The model decoding single utterances off the engine's queue; nil for an engine that does not.
    var utterances: (any UtteranceDecoding)? { get }
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

/// A model that decodes one utterance at a time, from any task: the accurate pass writes each utterance again with it.
public protocol UtteranceDecoding: Sendable {
    /// The model on disk it decodes with.
    var installed: InstalledModel { get }
    /// The utterance's text, its times counted from its first sample.
    /// - Parameters:
    ///   - audio: its samples, 16 kHz mono, 16-bit little-endian.
    ///   - previous: the text said before it, which steers the spelling; none when empty.
    ///   - awaited: the user waits for it (Send came): the engine may trade a little accuracy for time.
    /// - Throws: `.cancelled` when the task is cancelled, or why the engine failed.
    func transcribe(utterance audio: [UInt8], after previous: String, awaited: Bool) async throws(SpeechError) -> Transcript
    /// The same model writing each utterance in the likeliest of its locale and `locales` (BCP 47 tags), where it can
    /// tell them apart; itself where it cannot.
    func speaking(also locales: [String]) -> any UtteranceDecoding
}

extension UtteranceDecoding {
    public func speaking(also locales: [String]) -> any UtteranceDecoding { self }
}
