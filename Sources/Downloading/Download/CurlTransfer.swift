import CCurl

/// One request, performed with libcurl on the calling thread, its body handed to a `ResponseBody` as it
/// arrives; what every transfer shares is set here.
///
/// The body is never held whole: libcurl hands it over in pieces of up to 16 KiB.
final class CurlTransfer {
    /// How a transfer that did not fail ended.
    enum Ending: Equatable {
        /// The whole body reached the `ResponseBody`.
        case received
        /// The `ResponseBody` refused the response.
        case refused
    }

    private let url: String
    private let easy: CurlEasy
    private let body: any ResponseBody
    private let cancellation: TransferCancellation
    /// The `Content-Range` of the response being received; each response's status line resets it, as
    /// redirects' responses come before the last.
    private var contentRange: ContentRange?
    /// The status of the response whose headers are arriving: a 3xx's `Location` is checked before libcurl follows it.
    private var headStatus = 0
    private var hasBegun = false
    private var wasRefused = false
    /// What the body or a redirect's check threw: libcurl itself only learns that a callback failed, as
    /// `CURLE_WRITE_ERROR`.
    private var bodyFailure: DownloadError?

    /// Prepares a GET of `url`.
    /// - Parameters:
    ///   - url: An http:// or https:// address, or a file:// one when `allowingFileURLs`.
    ///   - range: The bytes to ask for, as `CURLOPT_RANGE` takes them: `1000-` from offset 1000 to the end.
    ///   - body: What receives the body.
    ///   - cancellation: The flag that aborts the transfer.
    ///   - allowingFileURLs: Whether `url` may be a file:// address: a document the user named, never a file
    ///     `HTTPDownload` keeps. Redirects go only where `DownloadAddress` allows, whatever this says.
    /// - Throws: `.setupFailed` when libcurl refuses a setting.
    init(
        url: String, range: String?, into body: any ResponseBody, cancellation: TransferCancellation, allowingFileURLs: Bool
    ) throws(DownloadError) {
        self.url = url
        self.body = body
        self.cancellation = cancellation
        easy = try CurlEasy()
        try easy.set(CURLOPT_URL, url)
        // Other threads run beside libcurl's: it must not time name lookups out with SIGALRM. Nor does it
        // need to ignore SIGPIPE: on Linux it sends with MSG_NOSIGNAL, TLS too (OpenSSL writes through its BIO).
        try easy.set(CURLOPT_NOSIGNAL, 1)
        try easy.set(CURLOPT_PROTOCOLS_STR, allowingFileURLs ? "http,https,file" : "http,https")
        // A server must not redirect into the local disk, nor from https to plain http; the header callback
        // also checks each Location's host (libcurl's options know only schemes).
        let isHTTPS = url.lowercased().hasPrefix("https:")
        try easy.set(CURLOPT_REDIR_PROTOCOLS_STR, isHTTPS ? "https" : "http,https")
        try easy.set(CURLOPT_FOLLOWLOCATION, 1)
        try easy.set(CURLOPT_MAXREDIRS, 5)
        try easy.set(CURLOPT_CONNECTTIMEOUT, 15)
        // No limit on the whole transfer, which takes minutes for a large file on a slow line; a stalled one
        // (under a byte a second for 30 s) fails instead.
        try easy.set(CURLOPT_LOW_SPEED_LIMIT, 1)
        try easy.set(CURLOPT_LOW_SPEED_TIME, 30)
        // An error status ends the transfer before its page reaches the body.
        try easy.set(CURLOPT_FAILONERROR, 1)
        // CURLOPT_RANGE rather than CURLOPT_RESUME_FROM_LARGE: libcurl then leaves the answer to the body,
        // which starts over on a 200, where libcurl would fail the transfer.
        if let range { try easy.set(CURLOPT_RANGE, range) }
        let context = Unmanaged.passUnretained(self).toOpaque()
        try easy.set(CURLOPT_WRITEDATA, pointer: context)
        try easy.setBodyFunction { data, size, count, context in
            CurlTransfer.from(context).receive(UnsafeRawBufferPointer(start: data, count: size * count)) ? size * count : 0
        }
        try easy.set(CURLOPT_HEADERDATA, pointer: context)
        try easy.setHeaderFunction { data, size, count, context in
            CurlTransfer.from(context).receiveHeader(UnsafeRawBufferPointer(start: data, count: size * count)) ? size * count : 0
        }
        try easy.set(CURLOPT_XFERINFODATA, pointer: context)
        try easy.setProgressFunction { context, _, _, _, _ in
            CurlTransfer.from(context).cancellation.isCancelled ? 1 : 0
        }
        try easy.set(CURLOPT_NOPROGRESS, 0)
    }

    /// Runs the transfer to its end; blocks meanwhile.
    /// - Returns: `.refused` when the body refused the response, else `.received`.
    /// - Throws: What the body threw; `.cancelled`; `.httpStatus` for a status other than 2xx;
    ///   `.unreachable` with libcurl's text for any other failure, a connection lost mid-body included.
    func perform() throws(DownloadError) -> Ending {
        let code = easy.perform()
        if let bodyFailure { throw bodyFailure }
        if wasRefused { return .refused }
        switch code {
        case CURLE_OK:
            // An empty body calls no write callback.
            if !hasBegun, try !begin() { return .refused }
            return .received
        case CURLE_ABORTED_BY_CALLBACK:
            throw .cancelled
        case CURLE_HTTP_RETURNED_ERROR:
            throw .httpStatus(code: easy.responseCode, url: easy.effectiveURL ?? url)
        default:
            throw .unreachable(url: easy.effectiveURL ?? url, reason: easy.failureText(of: code))
        }
    }

    /// The transfer a callback's context points to.
    private static func from(_ context: UnsafeMutableRawPointer?) -> CurlTransfer {
        Unmanaged<CurlTransfer>.fromOpaque(context!).takeUnretainedValue()
    }

    /// Hands a piece of the body on; `false` stops the transfer.
    private func receive(_ bytes: UnsafeRawBufferPointer) -> Bool {
        do throws(DownloadError) {
            if !hasBegun, try !begin() { return false }
            try body.append(bytes)
            return true
        } catch {
            bodyFailure = error
            return false
        }
    }

    /// Tells the body which response it receives; `false` when it refuses it.
    private func begin() throws(DownloadError) -> Bool {
        hasBegun = true
        let status = easy.responseCode
        // CURLOPT_FAILONERROR stops 4xx and 5xx; a 3xx that is not followed (no Location) is no document either.
        guard status == 0 || (200..<300).contains(status) else {
            throw .httpStatus(code: status, url: easy.effectiveURL ?? url)
        }
        let head = ResponseHead(status: status, contentLength: easy.contentLength, contentRange: contentRange)
        wasRefused = try !body.begin(head)
        return !wasRefused
    }

    /// Notes what the body's handling needs of a header line; `false` stops the transfer at a redirect
    /// `DownloadAddress` refuses.
    private func receiveHeader(_ line: UnsafeRawBufferPointer) -> Bool {
        let text = String(decoding: line, as: UTF8.self)
        if text.hasPrefix("HTTP/") {
            contentRange = nil
            headStatus = text.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
            return true
        }
        guard let colon = text.firstIndex(of: ":") else { return true }
        var value = text[text.index(after: colon)...].drop { $0 == " " || $0 == "\t" }
        while value.last?.isWhitespace == true { value = value.dropLast() }
        switch text[..<colon].lowercased() {
        case "content-range":
            contentRange = ContentRange(headerValue: value)
        case "location" where (300..<400).contains(headStatus):
            do throws(DownloadError) {
                try DownloadAddress.checkRedirect(from: easy.effectiveURL ?? url, to: String(value))
            } catch {
                bodyFailure = error
                return false
            }
        default:
            break
        }
        return true
    }
}

@available(*, unavailable)
extension CurlTransfer: Sendable {}
