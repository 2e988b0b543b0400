import Downloading
import FoundationEssentials

/// whisper.cpp's published ggml models Notula offers, in the form of Vosk's catalog (see `CatalogEntry`).
public enum WhisperCatalog {
    /// Where whisper.cpp's own download script fetches its models from (v1.8.5's `download-ggml-model.sh`), pinned to
    /// one commit of that repository rather than its moving `main`: the files served are the ones the sums below name.
    static let revision = "5359861c739e955e79d9a303bcbc70fb988958b1"
    static let base = "https://huggingface.co/ggerganov/whisper.cpp/resolve/\(revision)/"

    /// whisper.cpp's tiny, base and small models, plain and quantised, with the whole SHA-1 their publisher's model
    /// card (the Hugging Face repository's README) gives; whisper.cpp's own `models/README.md` gives only the first 8
    /// digits of the quantised ones'. Sizes are the published MiB figures, rounded up, so that they bound the download;
    /// the SHA-1 tells it whole. (The `.en-q8_0` files are on huggingface.co, not in v1.8.5's download script.)
    public static let builtIn = ModelCatalog(entries: [
        entry("tiny", "multi", mebibytes: 75, sha1: "bd577a113a864445d4c299885e0cb97d4ba92b5f"),
        entry("tiny.en", "en", mebibytes: 75, sha1: "c78c86eb1a8faa21b369bcd33207cc90d64ae9df"),
        entry("base", "multi", mebibytes: 142, sha1: "465707469ff3a37a2b9b8d8f89f2f99de7299dac"),
        entry("base.en", "en", mebibytes: 142, sha1: "137c40403d78fd54d454da0f9bd998f78703390c"),
        entry("small", "multi", mebibytes: 466, sha1: "55356645c2b361a969dfd0ef2c5a50d530afd8d5"),
        entry("small.en", "en", mebibytes: 466, sha1: "db8a495a91d927739e50b3fc1cc4c6b8f6c2d022"),
        entry("tiny-q5_1", "multi", mebibytes: 31, sha1: "2827a03e495b1ed3048ef28a6a4620537db4ee51"),
        entry("tiny-q8_0", "multi", mebibytes: 42, sha1: "19e8118f6652a650569f5a949d962154e01571d9"),
        entry("tiny.en-q5_1", "en", mebibytes: 31, sha1: "3fb92ec865cbbc769f08137f22470d6b66e071b6"),
        entry("tiny.en-q8_0", "en", mebibytes: 42, sha1: "802d6668e7d411123e672abe4cb6c18f12306abb"),
        entry("base-q5_1", "multi", mebibytes: 57, sha1: "a3733eda680ef76256db5fc5dd9de8629e62c5e7"),
        entry("base-q8_0", "multi", mebibytes: 78, sha1: "7bb89bb49ed6955013b166f1b6a6c04584a20fbe"),
        entry("base.en-q5_1", "en", mebibytes: 57, sha1: "d26d7ce5a1b6e57bea5d0431b9c20ae49423c94a"),
        entry("base.en-q8_0", "en", mebibytes: 78, sha1: "bb1574182e9b924452bf0cd1510ac034d323e948"),
        entry("small-q5_1", "multi", mebibytes: 181, sha1: "6fe57ddcfdd1c6b07cdcc73aaf620810ce5fc771"),
        entry("small-q8_0", "multi", mebibytes: 252, sha1: "bcad8a2083f4e53d648d586b7dbc0cd673d8afad"),
        entry("small.en-q5_1", "en", mebibytes: 181, sha1: "20f54878d608f94e4a8ee3ae56016571d47cba34"),
        entry("small.en-q8_0", "en", mebibytes: 252, sha1: "9d75ff4ccfa0a8217870d7405cf8cef0a5579852"),
    ])

    private static func entry(_ model: String, _ language: String, mebibytes: Int, sha1: String) -> CatalogEntry {
        CatalogEntry(
            voskCode: language, languageName: language == "en" ? "English" : "all languages", name: "ggml-" + model,
            url: URL(string: base + "ggml-\(model).bin")!, size: mebibytes << 20, sizeText: "\(mebibytes) MiB",
            checksum: .sha1(sha1), kind: .whisper, isObsolete: false, version: "")
    }
}
