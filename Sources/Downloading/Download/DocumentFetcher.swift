import FoundationEssentials
import Glibc
import Recording

/// Where a small document is fetched: in this process, or in a short-lived child of it.
///
/// libcurl brings OpenSSL, GnuTLS, nghttp2 and Kerberos, megabytes that stay mapped once loaded: a long-lived
/// process that fetches a document now and then has a child do it, so that they never enter the process.
public enum DocumentFetcher: Sendable {
    /// libcurl in this process.
    case inProcess
    /// libcurl in `executable`, started with `helperArgument`, the address and the limit; its `main` hands its
    /// command line to `DocumentFetcher.serve(_:)` first thing. `/proc/self/exe` runs the calling program again.
    case helper(executable: String)

    /// The argument that makes an executable fetch a document for its parent and exit.
    public static let helperArgument = "--fetch-document"

    /// Reads a small document, as `HTTPDownload.fetch` does, here or in the helper.
    /// - Parameters:
    ///   - url: An http://, https:// or file:// address, or an absolute path.
    ///   - maximumBytes: The most bytes accepted.
    /// - Throws: What `HTTPDownload.fetch` throws, the helper's failure included; `.setupFailed` when the helper
    ///   cannot be started or ends without saying why.
    public func fetch(_ url: String, maximumBytes: Int) async throws(DownloadError) -> [UInt8] {
        switch self {
        case .inProcess:
            return try await HTTPDownload.fetch(url, maximumBytes: maximumBytes)
        case .helper(let executable):
            let helper = try FetchHelperProcess(executable: executable, arguments: [url, String(maximumBytes)])
            return try await helper.outcome(maximumBytes: maximumBytes)
        }
    }

    /// When `arguments` (a command line, the program first) ask for a fetch, performs it in this process and
    /// writes its outcome on standard output: the document's bytes with status 0, or the `DownloadError` in
    /// JSON with status `failureStatus`.
    /// - Returns: The exit status, or `nil` when the command line is not a fetch's: the program then goes on.
    public static func serve(_ arguments: [String]) async -> Int32? {
        guard arguments.count == 4, arguments[1] == helperArgument, let maximumBytes = Int(arguments[3]) else { return nil }
        ChildSpawn.limitAddressSpace(to: addressSpace + max(0, min(maximumBytes, 1 << 30)))
        do throws(DownloadError) {
            let bytes = try await HTTPDownload.fetch(arguments[2], maximumBytes: maximumBytes)
            return writeStandardOutput(bytes) ? 0 : 1
        } catch {
            let encoded = (try? JSONEncoder().encode(error)).map { [UInt8]($0) } ?? []
            return writeStandardOutput(encoded) ? failureStatus : 1
        }
    }

    /// The runtime and libcurl with its threads, and room to spare, besides the document itself: a fetch peaked at
    /// 345 MiB of address space (33 MB resident), and worked down to 192 MiB.
    static let addressSpace = 1 << 30

    /// The helper's exit status when it writes a `DownloadError`.
    static let failureStatus: Int32 = 3

    /// Writes all of `bytes` on standard output, as a helper answers its parent; false when it cannot.
    public static func writeStandardOutput(_ bytes: [UInt8]) -> Bool {
        ChildPipe.write(bytes, to: STDOUT_FILENO)
    }
}
