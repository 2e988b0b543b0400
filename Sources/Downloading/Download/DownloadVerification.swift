import Glibc

extension HTTPDownload {
    /// Checks a downloaded file against what its publisher announced: its size first, which is quick and
    /// tells an incomplete file, then its MD5, which reads the whole file.
    /// - Parameters:
    ///   - file: The downloaded file.
    ///   - bytes: The expected size; `nil` not to check it.
    ///   - md5: The expected MD5 in hexadecimal, either case; `nil` not to check it.
    /// - Throws: `.sizeMismatch`, `.checksumMismatch`, or `.fileError` when the file cannot be read.
    public static func verify(file: String, bytes: Int64?, md5: String?) throws(DownloadError) {
        if let bytes {
            var status = stat()
            guard stat(file, &status) == 0 else { throw .file(file, errno: errno) }
            guard Int64(status.st_size) == bytes else { throw .sizeMismatch(expected: bytes, actual: Int64(status.st_size)) }
        }
        if let md5 {
            let actual = try MD5.hexDigest(ofFile: file)
            guard actual == md5.lowercased() else { throw .checksumMismatch(expected: md5.lowercased(), actual: actual) }
        }
    }
}
