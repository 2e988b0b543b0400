import Models
import Recording

/// An engine whose models decode in the decoding helper: Whisper's and sherpa-onnx's. Nothing of a model is loaded in
/// notulad, and the helper ends by itself once idle.
public protocol HelperEngine: SpeechEngine, Sendable {
    /// The helper and where the engine's models are.
    var models: HelperModels { get }
}

extension HelperEngine {
    /// Whether the engine's library was found: without it, no model of its decodes.
    public var isAvailable: Bool { models.helper != nil }

    /// The helper ends by itself once idle.
    public func release() {}
}

/// What an engine whose models decode in the decoding helper holds: the helper (nil without the engine's library) and
/// the places its models are found in.
public struct HelperModels: Sendable {
    let helper: DecodingHelper?
    let places: [String]
    let engine: DecodingRequest.Engine

    /// The helper, and the model `named` of `locale` that `loads` takes, else the locale's first such model, among
    /// those in `places`.
    /// - Throws: `engineUnavailable` without the engine's library, `modelUnavailable` without such a model.
    func model(for locale: String, named: String?, loadedBy loads: (InstalledModel) -> Bool) throws(RecordingError)
        -> (DecodingHelper, InstalledModel)
    {
        guard let helper else { throw .engineUnavailable(engine.missingLibrary) }
        let ofLocale = InstalledModels.all(places: places).filter { $0.locale == locale && loads($0) }
        guard let model = named.map({ name in ofLocale.first { $0.name == name } }) ?? ofLocale.first else {
            let what = named.map { "The \(engine.name) model \($0) of \(locale) is not" } ?? "No \(engine.name) model for \(locale) is"
            throw .modelUnavailable("\(what) on this machine (looked in \(places.joined(separator: ", "))).")
        }
        return (helper, model)
    }
}
