import Models
import Recording

/// Whisper as a speech engine: ggml models decoded in the helper process (`DecodingHelper`), a whole file or one
/// utterance at a time; it follows no stream, so the accurate pass feeds it Vosk's utterances, or `UtteranceCutter`'s.
///
/// Nothing is loaded in notulad: the helper loads a model at its first decoding and ends once idle.
public final class WhisperEngine: HelperEngine {
    public let models: HelperModels
    /// The most languages besides the locale's an utterance is weighed among: the user's few, not Whisper's 99, as
    /// each costs its share of the detection.
    public static let mostOtherLanguages = 4
    private let vocabulary: @Sendable () -> [String]

    /// - Parameters:
    ///   - helper: the helper its models decode in; nil without libwhisper.
    ///   - vocabulary: the user's terms as they are at each decoding, which Whisper is prompted with.
    public init(helper: DecodingHelper?, modelPlaces: [String], vocabulary: @escaping @Sendable () -> [String] = { [] }) {
        models = HelperModels(helper: helper, places: modelPlaces, engine: .whisper)
        self.vocabulary = vocabulary
    }

    public func loads(_ model: InstalledModel) -> Bool { model.kind == .whisper }

    public var cost: EngineCost { EngineCost(memory: .inHelper, cores: Int(WhisperModel.threads)) }

    /// The model `named`, else the locale's first Whisper model on disk; the helper loads it at its first decoding.
    public func model(for locale: String, named: String?) throws(RecordingError) -> any LoadedSpeechModel {
        let (helper, model) = try models.model(for: locale, named: named, loadedBy: loads)
        return LoadedWhisperModel(
            installed: model, language: WhisperLanguages.code(forTag: locale) ?? "auto", helper: helper, vocabulary: vocabulary)
    }
}

/// A Whisper model as the engine hands it out: its decodings are requests to the helper.
struct LoadedWhisperModel: LoadedSpeechModel, UtteranceDecoding {
    let installed: InstalledModel
    /// Whisper's code of the language spoken: `en`, `de`.
    let language: String
    /// Other languages an utterance may be in (Whisper's codes): each is written in the likeliest.
    var otherLanguages: [String] = []
    let helper: DecodingHelper
    let vocabulary: @Sendable () -> [String]

    /// Waits for the helper; a cancellation reaches it within 50 ms.
    func transcribe(wavFile path: String, unless isCancelled: () -> Bool) throws(SpeechError) -> Transcript {
        let prompt = WhisperPrompt.text(terms: vocabulary(), previous: "")
        let segments = try helper.transcribe(file: path, model: installed.path, language: language, prompt: prompt, unless: isCancelled)
        return Transcript(segments: segments, model: installed.name)
    }

    func hearing() throws(SpeechError) -> (any SpeechStream)? { nil }

    var utterances: (any UtteranceDecoding)? { self }

    /// An awaited utterance is encoded at its own length first (`FittedWindow`).
    func transcribe(utterance audio: [UInt8], after previous: String, awaited: Bool) async throws(SpeechError) -> Transcript {
        let decoded = try await helper.transcribe(
            audio: audio, model: installed.path, language: language, otherLanguages: otherLanguages,
            prompt: WhisperPrompt.text(terms: vocabulary(), previous: previous), fitted: awaited)
        var transcript = Transcript(segments: decoded.segments, model: installed.name)
        transcript.language = decoded.language
        return transcript
    }

    /// An English-only model writes English whatever is asked; a multilingual one weighs the languages Whisper knows.
    func speaking(also locales: [String]) -> any UtteranceDecoding {
        var speaking = self
        speaking.otherLanguages = locales.compactMap(WhisperLanguages.code(forTag:)).filter { $0 != language }
        return speaking
    }
}
