import Synchronization

/// Which model the user chose per locale (`UseModel`, the `models` setting; the Whisper models of the accurate pass,
/// `accurateModels`, in another): written by the model store on the bus
/// thread, read by the speech engine on the transcription queue when it loads a model.
public final class ModelChoices: Sendable {
    private let chosen: Mutex<[String: String]>
    private let keeping: @Sendable ([String: String]) -> Void

    /// - Parameters:
    ///   - chosen: locale → model name, as kept in the settings.
    ///   - keep: writes them back there once changed.
    public init(_ chosen: [String: String], keep: @escaping @Sendable ([String: String]) -> Void = { _ in }) {
        self.chosen = Mutex(chosen)
        keeping = keep
    }

    /// Keeps the choices as they are now (in the settings).
    func keep() { keeping(all) }

    public var all: [String: String] { chosen.withLock { $0 } }

    public subscript(locale: String) -> String? {
        get { chosen.withLock { $0[locale] } }
        set { chosen.withLock { $0[locale] = newValue } }
    }
}
