/// Where a `CurlTransfer` puts the body it receives: a file, or memory.
protocol ResponseBody: AnyObject {
    /// The response whose body is about to arrive, after any redirects; called once, before the first
    /// `append(_:)`, and also for an empty body.
    /// - Returns: `false` to refuse the response (a range other than the one asked for): the transfer
    ///   stops and returns `.refused`.
    /// - Throws: What stops the transfer, such as `.tooLarge`.
    func begin(_ response: ResponseHead) throws(DownloadError) -> Bool

    /// The next bytes of the body, valid only during the call.
    /// - Throws: What stops the transfer, such as `.diskFull`.
    func append(_ bytes: UnsafeRawBufferPointer) throws(DownloadError)
}

/// What a response says of the body that follows it.
struct ResponseHead {
    /// The HTTP status, 2xx; 0 for a file:// URL.
    let status: Int
    /// The body's length as the response announced it; `nil` when it did not.
    let contentLength: Int64?
    /// The range a 206 holds.
    let contentRange: ContentRange?
}
