import CCurl

/// A libcurl easy handle. Every libcurl call of the module goes through this file: one place to audit them.
///
/// libcurl lets one thread at a time use a handle, so the handle has one owner, `CurlTransfer`, which
/// performs on a thread of its own.
final class CurlEasy {
    /// libcurl's global state, set up once before the first handle: `curl_easy_init` would set it up
    /// by itself, but only libcurl 7.84 and later do that safely while other threads use libcurl.
    private static let globalSetup: CURLcode = curl_global_init(Int(CURL_GLOBAL_DEFAULT))

    private let handle: UnsafeMutableRawPointer
    /// Where libcurl writes the text of a failure, more precise than the code's generic text
    /// ("Failed to connect to 127.0.0.1 port 8 after 0 ms: Couldn't connect to server"); it must live as
    /// long as the handle.
    private let errorBuffer: UnsafeMutablePointer<CChar>

    /// A new handle with its error buffer set.
    /// - Throws: `.setupFailed` when libcurl cannot set up its global state or a handle.
    /// The corresponding C functions are `curl_global_init` and `curl_easy_init`.
    init() throws(DownloadError) {
        guard Self.globalSetup == CURLE_OK else { throw .setupFailed(reason: Self.text(of: Self.globalSetup)) }
        guard let handle = curl_easy_init() else { throw .setupFailed(reason: "curl_easy_init returned no handle") }
        self.handle = handle
        errorBuffer = .allocate(capacity: Int(CURL_ERROR_SIZE))
        errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE))
        do {
            try set(CURLOPT_ERRORBUFFER, pointer: UnsafeMutableRawPointer(errorBuffer))
        } catch {
            curl_easy_cleanup(handle)
            errorBuffer.deallocate()
            throw error
        }
    }

    /// The corresponding C function is `curl_easy_cleanup`.
    deinit {
        curl_easy_cleanup(handle)
        errorBuffer.deallocate()
    }

    /// Sets an option that takes a `long`.
    /// - Throws: `.setupFailed` when libcurl refuses the option or the value.
    /// The corresponding C function is `curl_easy_setopt`.
    func set(_ option: CURLoption, _ value: Int) throws(DownloadError) {
        try check(ccurl_setopt_long(handle, option, value))
    }

    /// Sets an option that takes a string; libcurl keeps a copy of it.
    /// - Throws: `.setupFailed` when libcurl refuses the option or the value.
    /// The corresponding C function is `curl_easy_setopt`.
    func set(_ option: CURLoption, _ value: String) throws(DownloadError) {
        try check(value.withCString { ccurl_setopt_string(handle, option, $0) })
    }

    /// Sets an option that takes a pointer libcurl passes back to a callback, or a buffer it fills.
    /// - Throws: `.setupFailed` when libcurl refuses the option.
    /// The corresponding C function is `curl_easy_setopt`.
    func set(_ option: CURLoption, pointer: UnsafeMutableRawPointer?) throws(DownloadError) {
        try check(ccurl_setopt_pointer(handle, option, pointer))
    }

    /// Sets the function that receives the body, with `CURLOPT_WRITEDATA` as its last argument.
    /// - Throws: `.setupFailed` when libcurl refuses it.
    /// The corresponding C function is `curl_easy_setopt` with `CURLOPT_WRITEFUNCTION`.
    func setBodyFunction(_ function: curl_write_callback) throws(DownloadError) {
        try check(ccurl_setopt_write_function(handle, function))
    }

    /// Sets the function that receives each header line, with `CURLOPT_HEADERDATA` as its last argument.
    /// - Throws: `.setupFailed` when libcurl refuses it.
    /// The corresponding C function is `curl_easy_setopt` with `CURLOPT_HEADERFUNCTION`.
    func setHeaderFunction(_ function: curl_write_callback) throws(DownloadError) {
        try check(ccurl_setopt_header_function(handle, function))
    }

    /// Sets the function libcurl calls often during the transfer, and at least once a second, whose
    /// non-zero return aborts it; `CURLOPT_XFERINFODATA` is its first argument.
    /// - Throws: `.setupFailed` when libcurl refuses it.
    /// The corresponding C function is `curl_easy_setopt` with `CURLOPT_XFERINFOFUNCTION`.
    func setProgressFunction(_ function: curl_xferinfo_callback) throws(DownloadError) {
        try check(ccurl_setopt_xferinfo_function(handle, function))
    }

    /// Runs the transfer to its end, calling the callbacks on this thread; blocks meanwhile.
    /// The corresponding C function is `curl_easy_perform`.
    func perform() -> CURLcode {
        curl_easy_perform(handle)
    }

    /// The last response's HTTP status; 0 before one arrived and for file:// URLs.
    /// The corresponding C function is `curl_easy_getinfo` with `CURLINFO_RESPONSE_CODE`.
    var responseCode: Int {
        var code = 0
        return ccurl_getinfo_long(handle, CURLINFO_RESPONSE_CODE, &code) == CURLE_OK ? code : 0
    }

    /// The length of the body being received, as the response announced it; `nil` when it did not.
    /// The corresponding C function is `curl_easy_getinfo` with `CURLINFO_CONTENT_LENGTH_DOWNLOAD_T`.
    var contentLength: Int64? {
        var length: curl_off_t = -1
        guard ccurl_getinfo_off_t(handle, CURLINFO_CONTENT_LENGTH_DOWNLOAD_T, &length) == CURLE_OK, length >= 0 else {
            return nil
        }
        return Int64(length)
    }

    /// The address last requested, after any redirects.
    /// The corresponding C function is `curl_easy_getinfo` with `CURLINFO_EFFECTIVE_URL`.
    var effectiveURL: String? {
        var url: UnsafePointer<CChar>?
        guard ccurl_getinfo_string(handle, CURLINFO_EFFECTIVE_URL, &url) == CURLE_OK, let url else { return nil }
        return String(cString: url)
    }

    /// What went wrong in the last `perform()` that returned `code`: the error buffer's precise text, or
    /// else the code's generic one.
    func failureText(of code: CURLcode) -> String {
        let precise = String(cString: errorBuffer)
        return precise.isEmpty ? Self.text(of: code) : precise
    }

    private func check(_ code: CURLcode) throws(DownloadError) {
        guard code == CURLE_OK else { throw .setupFailed(reason: Self.text(of: code)) }
    }

    /// The corresponding C function is `curl_easy_strerror`.
    private static func text(of code: CURLcode) -> String {
        String(cString: curl_easy_strerror(code))
    }
}

@available(*, unavailable)
extension CurlEasy: Sendable {}
