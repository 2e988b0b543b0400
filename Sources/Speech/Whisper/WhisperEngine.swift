import Models
import Recording

/// Whisper as a speech engine: ggml models decoded in the helper process (`DecodingHelper`), a whole file or one
/// utterance at a time; it follows no stream, so the accurate pass feeds it Vosk's utterances, or `UtteranceCutter`'s.
///
/// Nothing is loaded in notulad: the helper loads a model at its first decoding and ends once idle.
public final class WhisperEngine: SpeechEngine, Sendable {
    private let helper: DecodingHelper?
    private let modelPlaces: [String]

    /// - Parameter helper: the helper its models decode in; nil without libwhisper.
    public init(helper: DecodingHelper?, modelPlaces: [String]) {
        self.helper = helper
        self.modelPlaces = modelPlaces
    }

    /// Whether libwhisper was found: without it, no model of its decodes.
    public var isAvailable: Bool { helper != nil }

    public func loads(_ model: InstalledModel) -> Bool { model.kind == .whisper }

    public var cost: EngineCost { EngineCost(memory: .inHelper, cores: Int(WhisperModel.threads)) }

    /// The model `named`, else the locale's first Whisper model on disk; the helper loads it at its first decoding.
    public func model(for locale: String, named: String?) throws(RecordingError) -> any LoadedSpeechModel {
        guard let helper else {
            throw .engineUnavailable("libwhisper was not found: run `make`, or point NOTULA_WHISPER_LIBRARY at its libwhisper.so.1.")
        }
        let ofLocale = InstalledModels.all(places: modelPlaces).filter { $0.locale == locale && loads($0) }
        guard let model = named.map({ name in ofLocale.first { $0.name == name } }) ?? ofLocale.first else {
            let what = named.map { "The Whisper model \($0) of \(locale) is not" } ?? "No Whisper model for \(locale) is"
            throw .modelUnavailable("\(what) on this machine (looked in \(modelPlaces.joined(separator: ", "))).")
        }
        return LoadedWhisperModel(installed: model, language: WhisperLanguages.code(forTag: locale) ?? "auto", helper: helper)
    }

    /// The helper ends by itself once idle.
    public func release() {}
}

/// A Whisper model as the engine hands it out: its decodings are requests to the helper.
struct LoadedWhisperModel: LoadedSpeechModel, UtteranceDecoding {
    let installed: InstalledModel
    /// Whisper's code of the language spoken: `en`, `de`.
    let language: String
    let helper: DecodingHelper

    /// Waits for the helper; a cancellation reaches it within 50 ms.
    func transcribe(wavFile path: String, unless isCancelled: () -> Bool) throws(SpeechError) -> Transcript {
        let segments = try helper.transcribe(file: path, model: installed.path, language: language, unless: isCancelled)
        return Transcript(segments: segments, model: installed.name)
    }

    func hearing() throws(SpeechError) -> (any SpeechStream)? { nil }

    var utterances: (any UtteranceDecoding)? { self }

    /// An awaited utterance is encoded at its own length first (`FittedWindow`).
    func transcribe(utterance audio: [UInt8], after previous: String, awaited: Bool) async throws(SpeechError) -> Transcript {
        let segments = try await helper.transcribe(
            audio: audio, model: installed.path, language: language, prompt: previous, fitted: awaited)
        return Transcript(segments: segments, model: installed.name)
    }
}
