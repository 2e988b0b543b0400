import Downloading
import FoundationEssentials

/// whisper.cpp's published ggml models Notula offers, in the form of Vosk's catalog (see `CatalogEntry`).
public enum WhisperCatalog {
    /// Where whisper.cpp's own download script fetches its models from (v1.8.5's `download-ggml-model.sh`).
    static let base = "https://huggingface.co/ggerganov/whisper.cpp/resolve/main/"

    /// whisper.cpp's tiny, base and small models, plain and quantised, as its `models/README.md` at v1.8.5 lists them
    /// with their SHA-1: whole for the plain ones, the first 8 digits for the quantised. Sizes are the published MiB
    /// figures, rounded up, so that they bound the download; the SHA-1 tells it whole. (The `.en-q8_0` files are on
    /// huggingface.co, not in v1.8.5's download script.)
    public static let builtIn = ModelCatalog(entries: [
        entry("tiny", "multi", mebibytes: 75, sha1: "bd577a113a864445d4c299885e0cb97d4ba92b5f"),
        entry("tiny.en", "en", mebibytes: 75, sha1: "c78c86eb1a8faa21b369bcd33207cc90d64ae9df"),
        entry("base", "multi", mebibytes: 142, sha1: "465707469ff3a37a2b9b8d8f89f2f99de7299dac"),
        entry("base.en", "en", mebibytes: 142, sha1: "137c40403d78fd54d454da0f9bd998f78703390c"),
        entry("small", "multi", mebibytes: 466, sha1: "55356645c2b361a969dfd0ef2c5a50d530afd8d5"),
        entry("small.en", "en", mebibytes: 466, sha1: "db8a495a91d927739e50b3fc1cc4c6b8f6c2d022"),
        entry("tiny-q5_1", "multi", mebibytes: 31, sha1: "2827a03e"),
        entry("tiny-q8_0", "multi", mebibytes: 42, sha1: "19e8118f"),
        entry("tiny.en-q5_1", "en", mebibytes: 31, sha1: "3fb92ec8"),
        entry("tiny.en-q8_0", "en", mebibytes: 42, sha1: "802d6668"),
        entry("base-q5_1", "multi", mebibytes: 57, sha1: "a3733eda"),
        entry("base-q8_0", "multi", mebibytes: 78, sha1: "7bb89bb4"),
        entry("base.en-q5_1", "en", mebibytes: 57, sha1: "d26d7ce5"),
        entry("base.en-q8_0", "en", mebibytes: 78, sha1: "bb157418"),
        entry("small-q5_1", "multi", mebibytes: 181, sha1: "6fe57ddc"),
        entry("small-q8_0", "multi", mebibytes: 252, sha1: "bcad8a20"),
        entry("small.en-q5_1", "en", mebibytes: 181, sha1: "20f54878"),
        entry("small.en-q8_0", "en", mebibytes: 252, sha1: "9d75ff4c"),
    ])

    private static func entry(_ model: String, _ language: String, mebibytes: Int, sha1: String) -> CatalogEntry {
        CatalogEntry(
            voskCode: language, languageName: language == "en" ? "English" : "all languages", name: "ggml-" + model,
            url: URL(string: base + "ggml-\(model).bin")!, size: mebibytes << 20, sizeText: "\(mebibytes) MiB",
            checksum: sha1.count == 40 ? .sha1(sha1) : .sha1Prefix(sha1), kind: .whisper, isObsolete: false, version: "")
    }
}
