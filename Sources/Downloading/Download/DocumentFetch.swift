import FoundationEssentials

extension HTTPDownload {
    /// Reads a small document, such as a list of files to download, into memory, on a thread of its own.
    /// - Parameters:
    ///   - url: An http://, https:// or file:// address, or an absolute path.
    ///   - maximumBytes: The most bytes accepted.
    /// - Returns: The document's bytes.
    /// - Throws: `.tooLarge` for a body over `maximumBytes`; `.cancelled` when the awaiting task is
    ///   cancelled; `.httpStatus` for an HTTP error; `.unreachable` when no answer came or the body stopped
    ///   before its end, or the file cannot be read; `.setupFailed`.
    public static func fetch(_ url: String, maximumBytes: Int) async throws(DownloadError) -> [UInt8] {
        let address = url.hasPrefix("/") ? URL(fileURLWithPath: url).absoluteString : url
        let cancellation = TransferCancellation()
        return try await cancellation.perform { () throws(DownloadError) in
            let body = DocumentBody(limit: maximumBytes)
            _ = try CurlTransfer(
                url: address, range: nil, into: body, cancellation: cancellation, allowingFileURLs: true
            ).perform()
            return body.bytes
        }
    }
}
