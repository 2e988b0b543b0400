import Glibc

/// The checksum a publisher announces for a file, in hexadecimal.
public enum Checksum: Sendable, Hashable {
    /// Vosk's catalog: 32 hexadecimal digits.
    case md5(String)
    /// whisper.cpp's models: 40 hexadecimal digits.
    case sha1(String)
    /// sherpa-onnx's model archives: 64 hexadecimal digits.
    case sha256(String)

    /// `md5`, `sha1` or `sha256` with the right number of hexadecimal digits; nil otherwise.
    public init?(kind: String, hex: String) {
        let hex = hex.lowercased()
        guard hex.allSatisfy(\.isHexDigit) else { return nil }
        switch (kind, hex.utf8.count) {
        case ("md5", 32): self = .md5(hex)
        case ("sha1", 40): self = .sha1(hex)
        case ("sha256", 64): self = .sha256(hex)
        default: return nil
        }
    }

    /// The digits, lowercase.
    public var hex: String {
        switch self {
        case .md5(let hex), .sha1(let hex), .sha256(let hex): hex.lowercased()
        }
    }

    /// The checksum's name, as a person reads it: `MD5`, `SHA-1`, `SHA-256`.
    public var name: String {
        switch self {
        case .md5: "MD5"
        case .sha1: "SHA-1"
        case .sha256: "SHA-256"
        }
    }

    /// The same kind of checksum of `file`.
    func ofFile(_ file: String) throws(DownloadError) -> String {
        switch self {
        case .md5: try MD5.hexDigest(ofFile: file)
        case .sha1: try SHA1.hexDigest(ofFile: file)
        case .sha256: try SHA256.hexDigest(ofFile: file)
        }
    }
}

extension HTTPDownload {
    /// Checks a downloaded file against what its publisher announced: its size first, which is quick and
    /// tells an incomplete file, then its checksum, which reads the whole file.
    /// - Parameters:
    ///   - file: The downloaded file.
    ///   - bytes: The expected size; `nil` not to check it.
    ///   - checksum: The expected checksum; `nil` not to check it.
    /// - Throws: `.sizeMismatch`, `.checksumMismatch`, or `.fileError` when the file cannot be read.
    public static func verify(file: String, bytes: Int64?, checksum: Checksum?) throws(DownloadError) {
        if let bytes {
            var status = stat()
            guard stat(file, &status) == 0 else { throw .file(file, errno: errno) }
            guard Int64(status.st_size) == bytes else { throw .sizeMismatch(expected: bytes, actual: Int64(status.st_size)) }
        }
        if let checksum {
            let actual = try checksum.ofFile(file)
            guard actual == checksum.hex else {
                throw .checksumMismatch(kind: checksum.name, expected: checksum.hex, actual: actual)
            }
        }
    }
}
