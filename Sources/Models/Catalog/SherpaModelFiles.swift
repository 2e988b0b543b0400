/// The files of a sherpa-onnx model's folder, as its published archive unpacks: what the recogniser opens, by kind.
public enum SherpaModelFiles {
    /// The files a model of `kind` is opened from, `tokens.txt` last; none for a kind sherpa-onnx does not decode.
    public static func files(of kind: ModelKind) -> [String] {
        switch kind {
        case .parakeet: ["encoder.int8.onnx", "decoder.int8.onnx", "joiner.int8.onnx", "tokens.txt"]
        case .moonshine: ["preprocess.onnx", "encode.int8.onnx", "uncached_decode.int8.onnx", "cached_decode.int8.onnx", "tokens.txt"]
        default: []
        }
    }

    /// The first of `kind`'s files that `folder` lacks, or is not a file with something in it; nil when it has them all.
    public static func missing(in folder: String, of kind: ModelKind) -> String? {
        files(of: kind).first { !InstalledModels.isFile(atPath: folder + "/" + $0) }
    }
}
