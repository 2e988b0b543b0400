/// Checks, with the engine that would load it, that an unpacked model loads before it is installed; the engine's
/// side hands it in (notulad: libvosk's, the helper's for sherpa-onnx's), so that the models know no engine.
public typealias ModelLoadCheck = @Sendable (_ path: String, _ kind: ModelKind) throws(UnloadableModel) -> Void

/// Why a model on disk does not load, in words meant for the user.
public struct UnloadableModel: Error, Sendable, Equatable {
    public let message: String

    public init(_ message: String) { self.message = message }
}
