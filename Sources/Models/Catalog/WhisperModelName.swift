/// The file name of a ggml Whisper model, as whisper.cpp publishes them: `ggml-tiny.en.bin`, `ggml-base.en-q5_1.bin`,
/// `ggml-small.bin`, `ggml-small.en-tdrz.bin`. The `.en` models are English-only, the others multilingual.
struct WhisperModelName {
    /// The model's name: the file's without `.bin`, `ggml-tiny.en`.
    let name: String
    /// `en` for an English-only model, `multi` for a multilingual one, as a Whisper catalog's `lang` says.
    let language: String

    /// Reads a file name; nil for one that is not a Whisper model's.
    init?(file: String) {
        guard file.hasPrefix("ggml-"), file.hasSuffix(".bin") else { return nil }
        self.init(name: String(file.dropLast(".bin".count)))
    }

    /// Reads a model's name: `ggml-tiny.en`; nil for one that is not a Whisper model's.
    init?(name: String) {
        guard name.hasPrefix("ggml-") else { return nil }
        // The size, `.en` for English-only, then a quantisation or a variant: `tiny.en`, `base.en-q5_1`, `large-v3`.
        let parts = name.dropFirst("ggml-".count).split(separator: "-", omittingEmptySubsequences: false)
        guard let model = parts.first, !model.isEmpty,
            parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_" || $0 == ".") } })
        else { return nil }
        let isEnglish = model.hasSuffix(".en")
        guard model.dropLast(isEnglish ? 3 : 0).allSatisfy({ $0.isLetter || $0.isNumber }) else { return nil }
        self.name = name
        language = isEnglish ? "en" : "multi"
    }

    /// The locales it serves: the English ones, or every one Whisper knows.
    var locales: [String] { WhisperLanguages.locales(ofModelLanguage: language) }
}
