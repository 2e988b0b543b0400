/// The folder name of a sherpa-onnx model as its published archive unpacks: `sherpa-onnx-nemo-parakeet-tdt-0.6b-v2-int8`,
/// `sherpa-onnx-moonshine-base-en-int8`. The name tells the kind and the languages, as sherpa-onnx names them.
struct SherpaModelName {
    let name: String
    let kind: ModelKind
    /// The languages as a sherpa-onnx catalog entry's `lang` lists them: `en`, or Parakeet v3's 25.
    let languages: String

    /// Reads a folder name; nil for one not of the four archives whose files and languages Notula knows.
    init?(_ name: String) {
        switch name {
        case "sherpa-onnx-nemo-parakeet-tdt-0.6b-v2-int8": (kind, languages) = (.parakeet, "en")
        case "sherpa-onnx-nemo-parakeet-tdt-0.6b-v3-int8": (kind, languages) = (.parakeet, SherpaCatalog.europeanLanguages)
        // sherpa-onnx publishes Moonshine v1 in English alone.
        case "sherpa-onnx-moonshine-tiny-en-int8", "sherpa-onnx-moonshine-base-en-int8": (kind, languages) = (.moonshine, "en")
        default: return nil
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
