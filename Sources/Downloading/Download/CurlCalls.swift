import CCurl
import Glibc

/// The libcurl functions the module calls, resolved once with `dlsym` from a libcurl opened at the first download.
///
/// Loaded, not linked: libcurl brings OpenSSL, GnuTLS, Kerberos and more, several megabytes that a service
/// which never downloads should not carry.
// Unchecked: every field is set once in `init` (function addresses, libcurl's setup code) and only read after.
private struct CurlFunctions: @unchecked Sendable {
    typealias GlobalInit = @convention(c) (Int) -> CURLcode
    typealias EasyInit = @convention(c) () -> UnsafeMutableRawPointer?
    typealias EasyHandleCall = @convention(c) (UnsafeMutableRawPointer) -> CURLcode
    typealias EasyCleanup = @convention(c) (UnsafeMutableRawPointer) -> Void
    typealias EasyStrerror = @convention(c) (CURLcode) -> UnsafePointer<CChar>?

    let globalInit: GlobalInit
    let easyInit: EasyInit
    let easyPerform: EasyHandleCall
    let easyCleanup: EasyCleanup
    let easyStrerror: EasyStrerror
    /// The variadic `curl_easy_setopt` and `curl_easy_getinfo`, called through the shim's typed helpers.
    /// Function addresses, never written: what keeps the struct from being checked Sendable.
    let easySetopt: UnsafeMutableRawPointer
    let easyGetinfo: UnsafeMutableRawPointer
    /// `curl_global_init`'s outcome: libcurl's global state, set up once before the first handle
    /// (`curl_easy_init` would set it up by itself, but only libcurl 7.84 and later do that safely while other
    /// threads use libcurl).
    let globalSetup: CURLcode

    /// libcurl as Debian installs it (the libcurl4 package, a dependency of libcurl4-openssl-dev).
    static let loaded: Result<CurlFunctions, DownloadError> = Result { () throws(DownloadError) in try CurlFunctions() }

    /// The corresponding C functions are `dlopen`, `dlsym` and `curl_global_init`.
    private init() throws(DownloadError) {
        guard let handle = dlopen("libcurl.so.4", RTLD_NOW | RTLD_LOCAL) else {
            let reason = dlerror().map { String(cString: $0) } ?? "not found"
            throw .setupFailed(reason: "libcurl cannot be loaded (\(reason)); install it with `apt install libcurl4`")
        }
        func resolve(_ name: String) throws(DownloadError) -> UnsafeMutableRawPointer {
            guard let symbol = dlsym(handle, name) else { throw .setupFailed(reason: "libcurl lacks \(name)") }
            return symbol
        }
        globalInit = unsafeBitCast(try resolve("curl_global_init"), to: GlobalInit.self)
        easyInit = unsafeBitCast(try resolve("curl_easy_init"), to: EasyInit.self)
        easyPerform = unsafeBitCast(try resolve("curl_easy_perform"), to: EasyHandleCall.self)
        easyCleanup = unsafeBitCast(try resolve("curl_easy_cleanup"), to: EasyCleanup.self)
        easyStrerror = unsafeBitCast(try resolve("curl_easy_strerror"), to: EasyStrerror.self)
        easySetopt = try resolve("curl_easy_setopt")
        easyGetinfo = try resolve("curl_easy_getinfo")
        globalSetup = globalInit(Int(CURL_GLOBAL_DEFAULT))
    }
}

/// A libcurl easy handle. Every libcurl call of the module goes through this file: one place to audit them.
///
/// libcurl lets one thread at a time use a handle, so the handle has one owner, `CurlTransfer`, which
/// performs on a thread of its own.
final class CurlEasy {
    private let curl: CurlFunctions

    private let handle: UnsafeMutableRawPointer
    /// Where libcurl writes the text of a failure, more precise than the code's generic text
    /// ("Failed to connect to 127.0.0.1 port 8 after 0 ms: Couldn't connect to server"); it must live as
    /// long as the handle.
    private let errorBuffer: UnsafeMutablePointer<CChar>

    /// A new handle with its error buffer set; libcurl is loaded the first time.
    /// - Throws: `.setupFailed` when libcurl cannot be loaded, or cannot set up its global state or a handle.
    /// The corresponding C function is `curl_easy_init`.
    init() throws(DownloadError) {
        let curl = try CurlFunctions.loaded.get()
        guard curl.globalSetup == CURLE_OK else { throw .setupFailed(reason: Self.text(of: curl.globalSetup, curl)) }
        guard let handle = curl.easyInit() else { throw .setupFailed(reason: "curl_easy_init returned no handle") }
        self.curl = curl
        self.handle = handle
        errorBuffer = .allocate(capacity: Int(CURL_ERROR_SIZE))
        errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE))
        do {
            try set(CURLOPT_ERRORBUFFER, pointer: UnsafeMutableRawPointer(errorBuffer))
        } catch {
            curl.easyCleanup(handle)
            errorBuffer.deallocate()
            throw error
        }
    }

    /// The corresponding C function is `curl_easy_cleanup`.
    deinit {
        curl.easyCleanup(handle)
        errorBuffer.deallocate()
    }

    /// Sets an option that takes a `long`.
    /// - Throws: `.setupFailed` when libcurl refuses the option or the value.
    /// The corresponding C function is `curl_easy_setopt`.
    func set(_ option: CURLoption, _ value: Int) throws(DownloadError) {
        try check(ccurl_setopt_long(curl.easySetopt, handle, option, value))
    }

    /// Sets an option that takes a string; libcurl keeps a copy of it.
    /// - Throws: `.setupFailed` when libcurl refuses the option or the value.
    /// The corresponding C function is `curl_easy_setopt`.
    func set(_ option: CURLoption, _ value: String) throws(DownloadError) {
        try check(value.withCString { ccurl_setopt_string(curl.easySetopt, handle, option, $0) })
    }

    /// Sets an option that takes a pointer libcurl passes back to a callback, or a buffer it fills.
    /// - Throws: `.setupFailed` when libcurl refuses the option.
    /// The corresponding C function is `curl_easy_setopt`.
    func set(_ option: CURLoption, pointer: UnsafeMutableRawPointer?) throws(DownloadError) {
        try check(ccurl_setopt_pointer(curl.easySetopt, handle, option, pointer))
    }

    /// Sets the function that receives the body, with `CURLOPT_WRITEDATA` as its last argument.
    /// - Throws: `.setupFailed` when libcurl refuses it.
    /// The corresponding C function is `curl_easy_setopt` with `CURLOPT_WRITEFUNCTION`.
    func setBodyFunction(_ function: curl_write_callback) throws(DownloadError) {
        try check(ccurl_setopt_write_function(curl.easySetopt, handle, function))
    }

    /// Sets the function that receives each header line, with `CURLOPT_HEADERDATA` as its last argument.
    /// - Throws: `.setupFailed` when libcurl refuses it.
    /// The corresponding C function is `curl_easy_setopt` with `CURLOPT_HEADERFUNCTION`.
    func setHeaderFunction(_ function: curl_write_callback) throws(DownloadError) {
        try check(ccurl_setopt_header_function(curl.easySetopt, handle, function))
    }

    /// Sets the function libcurl calls often during the transfer, and at least once a second, whose
    /// non-zero return aborts it; `CURLOPT_XFERINFODATA` is its first argument.
    /// - Throws: `.setupFailed` when libcurl refuses it.
    /// The corresponding C function is `curl_easy_setopt` with `CURLOPT_XFERINFOFUNCTION`.
    func setProgressFunction(_ function: curl_xferinfo_callback) throws(DownloadError) {
        try check(ccurl_setopt_xferinfo_function(curl.easySetopt, handle, function))
    }

    /// Runs the transfer to its end, calling the callbacks on this thread; blocks meanwhile.
    /// The corresponding C function is `curl_easy_perform`.
    func perform() -> CURLcode {
        curl.easyPerform(handle)
    }

    /// The last response's HTTP status; 0 before one arrived and for file:// URLs.
    /// The corresponding C function is `curl_easy_getinfo` with `CURLINFO_RESPONSE_CODE`.
    var responseCode: Int {
        var code = 0
        return ccurl_getinfo_long(curl.easyGetinfo, handle, CURLINFO_RESPONSE_CODE, &code) == CURLE_OK ? code : 0
    }

    /// The length of the body being received, as the response announced it; `nil` when it did not.
    /// The corresponding C function is `curl_easy_getinfo` with `CURLINFO_CONTENT_LENGTH_DOWNLOAD_T`.
    var contentLength: Int64? {
        var length: curl_off_t = -1
        guard ccurl_getinfo_off_t(curl.easyGetinfo, handle, CURLINFO_CONTENT_LENGTH_DOWNLOAD_T, &length) == CURLE_OK, length >= 0 else {
            return nil
        }
        return Int64(length)
    }

    /// The address last requested, after any redirects.
    /// The corresponding C function is `curl_easy_getinfo` with `CURLINFO_EFFECTIVE_URL`.
    var effectiveURL: String? {
        var url: UnsafePointer<CChar>?
        guard ccurl_getinfo_string(curl.easyGetinfo, handle, CURLINFO_EFFECTIVE_URL, &url) == CURLE_OK, let url else { return nil }
        return String(cString: url)
    }

    /// What went wrong in the last `perform()` that returned `code`: the error buffer's precise text, or
    /// else the code's generic one.
    func failureText(of code: CURLcode) -> String {
        let precise = String(cString: errorBuffer)
        return precise.isEmpty ? Self.text(of: code, curl) : precise
    }

    private func check(_ code: CURLcode) throws(DownloadError) {
        guard code == CURLE_OK else { throw .setupFailed(reason: Self.text(of: code, curl)) }
    }

    /// The corresponding C function is `curl_easy_strerror`.
    private static func text(of code: CURLcode, _ curl: CurlFunctions) -> String {
        curl.easyStrerror(code).map { String(cString: $0) } ?? "libcurl error \(code.rawValue)"
    }
}

@available(*, unavailable)
extension CurlEasy: Sendable {}
