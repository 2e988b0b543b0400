/// The file name of a ggml Whisper model, as whisper.cpp publishes them: `ggml-tiny.en.bin`, `ggml-base.en-q5_1.bin`,
/// `ggml-small.bin`. The `.en` models are English-only; the others, multilingual, are not served yet.
struct WhisperModelName {
    /// The model's name: the file's without `.bin`, `ggml-tiny.en`.
    let name: String
    /// The locale an English-only model serves.
    let locale: String

    /// Reads a file name; nil for one that is not an English-only Whisper model's.
    init?(file: String) {
        guard file.hasPrefix("ggml-"), file.hasSuffix(".bin") else { return nil }
        let name = String(file.dropLast(".bin".count))
        // The size, `.en` for English-only, then a quantisation: `tiny.en`, `base.en-q5_1`.
        let model = name.dropFirst("ggml-".count).split(separator: "-").first ?? ""
        guard model.hasSuffix(".en"), model.dropLast(3).allSatisfy({ $0.isLetter || $0.isNumber }) else { return nil }
        self.name = name
        locale = "en-US"
    }
}
