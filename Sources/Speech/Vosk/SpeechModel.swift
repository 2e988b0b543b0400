/// A Vosk model loaded into memory (a few hundred MB for a small model: 500 MB for the Korean one), shared by any number of recognizers.
///
/// Sendable without locks because libvosk only reads a model after loading it and documents it as
/// shareable by recognizers on different threads; libvosk counts the recognizers' references, so the
/// model outlives this object while a recognizer still uses it.
public final class SpeechModel: Sendable {
    /// The folder the model was loaded from.
    public let path: String
    let library: VoskLibrary
    /// Read-only after `vosk_model_new` returns, per Vosk: the one field that keeps this class from being
    /// checked Sendable, so the exception stays on it rather than on the whole class.
    nonisolated(unsafe) let handle: OpaquePointer

    /// Loads the model in `path` (a folder holding `am/`, `conf/`, `graph/`, `ivector/`); takes a couple of seconds.
    /// - Parameters:
    ///   - library: The libvosk to load it with.
    ///   - path: The model's folder.
    /// - Throws: `.modelUnavailable` when libvosk rejects the folder.
    /// The corresponding C function is `vosk_model_new`.
    public init(library: VoskLibrary, path: String) throws(SpeechError) {
        guard let handle = library.functions.newModel(path: path) else {
            throw .modelUnavailable(
                "\(path) is not a Vosk model that libvosk can load. A model folder holds am/, conf/, graph/ and ivector/; "
                    + "download the model again."
            )
        }
        self.library = library
        self.path = path
        self.handle = handle
    }

    /// The corresponding C function is `vosk_model_free`.
    deinit {
        library.functions.freeModel(handle)
    }
}
