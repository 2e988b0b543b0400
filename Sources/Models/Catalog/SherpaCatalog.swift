import Downloading
import FoundationEssentials

/// sherpa-onnx's published archives of the models Notula offers, in the form of Vosk's catalog (see `CatalogEntry`):
/// NVIDIA's Parakeet TDT 0.6B (v2 English, v3 25 European languages) and Useful Sensors' Moonshine (tiny and base,
/// English), int8. The SHA-256 tells each archive whole: Parakeet's as GitHub's release API gives them; Moonshine's,
/// older than the API's digests, as about ten other projects that download them pin them (none checked from here:
/// these machines reach no GitHub release).
public enum SherpaCatalog {
    /// The release sherpa-onnx publishes its speech recognition models under.
    static let base = "https://github.com/k2-fsa/sherpa-onnx/releases/download/asr-models/"

    /// Parakeet TDT 0.6B v3's languages, as NVIDIA's model card lists them.
    static let europeanLanguages = "bg,cs,da,de,el,en,es,et,fi,fr,hr,hu,it,lt,lv,mt,nl,pl,pt,ro,ru,sk,sl,sv,uk"

    public static let builtIn = ModelCatalog(entries: [
        entry(
            "sherpa-onnx-nemo-parakeet-tdt-0.6b-v2-int8", .parakeet, "en", "English", bytes: 482_468_385,
            sha256: "157c157bc51155e03e37d2466522a3a737dd9c72bb25f36eb18912964161e1ad"),
        entry(
            "sherpa-onnx-nemo-parakeet-tdt-0.6b-v3-int8", .parakeet, europeanLanguages, "25 European languages", bytes: 487_170_055,
            sha256: "5793d0fd397c5778d2cf2126994d58e9d56b1be7c04d13c7a15bb1b4eafb16bf"),
        entry(
            "sherpa-onnx-moonshine-tiny-en-int8", .moonshine, "en", "English", bytes: 107_600_538,
            sha256: "d5fe6ec4334fef36255b2a4010412cad4c007e33103fec62fb5d17cad88086f2"),
        entry(
            "sherpa-onnx-moonshine-base-en-int8", .moonshine, "en", "English", bytes: 250_807_309,
            sha256: "21870cecaa2e44e4e2bf63e02d1072bed183ccd10284871353bd9d24dad14e5e"),
    ])

    private static func entry(_ name: String, _ kind: ModelKind, _ languages: String, _ languageName: String, bytes: Int, sha256: String)
        -> CatalogEntry
    {
        CatalogEntry(
            voskCode: languages, languageName: languageName, name: name, url: URL(string: base + name + ".tar.bz2")!, size: bytes,
            sizeText: DownloadError.text(forByteCount: Int64(bytes)), checksum: .sha256(sha256), kind: kind, isObsolete: false,
            version: "")
    }
}
