import Models
import Recording

/// sherpa-onnx as a speech engine: Parakeet TDT and Moonshine models decoded in the helper process
/// (`DecodingHelper`), a whole file or one utterance at a time; it follows no stream, so the accurate pass feeds it
/// Vosk's utterances, or `UtteranceCutter`'s.
///
/// Nothing is loaded in notulad: sherpa-onnx ends the process on an inconsistent model and aborts on a Parakeet that
/// fails while decoding, and the helper it runs in loads a model at its first decoding and ends once idle.
public final class SherpaEngine: HelperEngine {
    public let models: HelperModels

    /// - Parameter helper: the helper its models decode in; nil without sherpa-onnx's library.
    public init(helper: DecodingHelper?, modelPlaces: [String]) {
        models = HelperModels(helper: helper, places: modelPlaces, engine: .sherpa)
    }

    public func loads(_ model: InstalledModel) -> Bool { SherpaRecognizer.Family(kind: model.kind) != nil }

    public var cost: EngineCost { EngineCost(memory: .inHelper, cores: SherpaRecognizer.threads) }

    /// Checks, in the helper, that sherpa-onnx loads the model of `kind` in `folder` and decodes half a second of quiet
    /// with it: an installation's last step. Without the library there is nothing to check with.
    /// - Throws: `.recognitionFailed` saying why it does not load, or that it ended the helper.
    public func checkLoads(folder: String, kind: ModelKind) throws(SpeechError) {
        guard let helper = models.helper, let family = SherpaRecognizer.Family(kind: kind) else { return }
        _ = try helper.transcribe(quiet: 0.5, family: family, folder: folder)
    }

    /// The model `named`, else the locale's first sherpa-onnx model on disk; the helper loads it at its first decoding.
    public func model(for locale: String, named: String?) throws(RecordingError) -> any LoadedSpeechModel {
        let (helper, model) = try models.model(for: locale, named: named, loadedBy: loads)
        guard let family = SherpaRecognizer.Family(kind: model.kind) else {
            throw .modelUnavailable("\(model.name) is no model sherpa-onnx runs here.")
        }
        return LoadedSherpaModel(installed: model, family: family, helper: helper)
    }
}

/// A sherpa-onnx model as the engine hands it out: its decodings are requests to the helper.
struct LoadedSherpaModel: LoadedSpeechModel, UtteranceDecoding {
    let installed: InstalledModel
    let family: SherpaRecognizer.Family
    let helper: DecodingHelper

    /// Waits for the helper; a cancellation reaches it within 50 ms, and ends it past `cancelGrace`.
    func transcribe(wavFile path: String, unless isCancelled: () -> Bool) throws(SpeechError) -> Transcript {
        var transcript = try helper.transcribe(file: path, family: family, folder: installed.path, unless: isCancelled)
        transcript.model = installed.name
        return transcript
    }

    func hearing() throws(SpeechError) -> (any SpeechStream)? { nil }

    var utterances: (any UtteranceDecoding)? { self }

    /// sherpa-onnx takes no previous text, and decodes an utterance as fast whether awaited or not.
    func transcribe(utterance audio: [UInt8], after previous: String, awaited: Bool) async throws(SpeechError) -> Transcript {
        var transcript = try await helper.transcribe(utterance: audio, family: family, folder: installed.path)
        transcript.model = installed.name
        return transcript
    }
}
