/// Who loads a locale's model ahead of the next recording: the transcriber, told by the store of a locale picked or a
/// model installed.
public protocol ModelPreparing: Sendable {
    /// Loads the model of `locale` now, when it is on disk.
    func prepare(_ locale: String)
    /// Loads the model of `locale` when it is the one recordings are transcribed in.
    func prepareIfPicked(_ locale: String)
}
