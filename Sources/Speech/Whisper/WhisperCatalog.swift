import Downloading
import FoundationEssentials

/// whisper.cpp's published ggml models Notula offers, in the form of Vosk's catalog (see `CatalogEntry`).
public enum WhisperCatalog {
    /// Where whisper.cpp's own download script fetches its models from (v1.8.5's `download-ggml-model.sh`).
    static let base = "https://huggingface.co/ggerganov/whisper.cpp/resolve/main/"

    /// The models whose full SHA-1 whisper.cpp publishes (its `models/README.md` at v1.8.5). The quantised ones are
    /// left out until their sums can be checked whole: a download is never installed unverified. Sizes are the
    /// published MiB figures, rounded up, so that they bound the download; the SHA-1 proves it whole.
    public static let builtIn = ModelCatalog(entries: [
        entry("tiny", "multi", mebibytes: 75, sha1: "bd577a113a864445d4c299885e0cb97d4ba92b5f"),
        entry("tiny.en", "en", mebibytes: 75, sha1: "c78c86eb1a8faa21b369bcd33207cc90d64ae9df"),
        entry("base", "multi", mebibytes: 142, sha1: "465707469ff3a37a2b9b8d8f89f2f99de7299dac"),
        entry("base.en", "en", mebibytes: 142, sha1: "137c40403d78fd54d454da0f9bd998f78703390c"),
        entry("small", "multi", mebibytes: 466, sha1: "55356645c2b361a969dfd0ef2c5a50d530afd8d5"),
        entry("small.en", "en", mebibytes: 466, sha1: "db8a495a91d927739e50b3fc1cc4c6b8f6c2d022"),
    ])

    private static func entry(_ model: String, _ language: String, mebibytes: Int, sha1: String) -> CatalogEntry {
        CatalogEntry(
            voskCode: language, languageName: language == "en" ? "English" : "all languages", name: "ggml-" + model,
            url: URL(string: base + "ggml-\(model).bin")!, size: mebibytes << 20, sizeText: "\(mebibytes) MiB",
            checksum: .sha1(sha1), kind: .whisper, isObsolete: false, version: "")
    }
}
