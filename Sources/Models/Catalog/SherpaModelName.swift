/// The folder name of a sherpa-onnx model as its published archive unpacks: `sherpa-onnx-nemo-parakeet-tdt-0.6b-v2-int8`,
/// `sherpa-onnx-moonshine-base-en-int8`. The name tells the kind and the languages, as sherpa-onnx names them.
struct SherpaModelName {
    let name: String
    let kind: ModelKind
    /// The languages as a sherpa-onnx catalog entry's `lang` lists them: `en`, or Parakeet v3's 25.
    let languages: String

    /// Reads a folder name; nil for one that is not a Parakeet or Moonshine model's.
    init?(_ name: String) {
        guard name.hasPrefix("sherpa-onnx-") else { return nil }
        let parts = name.split(separator: "-")
        if parts.contains("parakeet") {
            kind = .parakeet
            // v2 is English only; v3 (and later, so far) speaks the 25 European languages.
            languages = parts.contains("v2") || parts.contains("en") ? "en" : SherpaCatalog.europeanLanguages
        } else if parts.contains("moonshine") {
            // sherpa-onnx publishes Moonshine v1 in English alone.
            kind = .moonshine
            languages = "en"
        } else {
            return nil
        }
        self.name = name
    }

    /// The locales it serves.
    var locales: [String] { Self.locales(ofLanguages: languages) }

    /// The locales of the languages a sherpa-onnx catalog entry's `lang` lists (`en`, `bg,cs,da`): each one's, as
    /// Whisper's models of it serve.
    static func locales(ofLanguages languages: String) -> [String] {
        languages.split(separator: ",").flatMap { code in code == "multi" ? [] : WhisperLanguages.locales(ofModelLanguage: String(code)) }
    }
}
