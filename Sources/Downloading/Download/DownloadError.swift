/// Why a download, or the check of a downloaded file, failed.
///
/// Each case's `message` is meant for the user: what went wrong and, where it helps, what happens next.
/// Codable, so that a helper process can hand it to its parent (`DocumentFetcher.helper`).
/// The cases keep what C said (libcurl's error text, the `errno` of a failed write) in the form the message needs.
public enum DownloadError: Error, Sendable, Equatable, Codable {
    /// `HTTPDownload.cancel()` was called, or the task awaiting the transfer was cancelled.
    case cancelled
    /// The server answered `code`, an HTTP error, for `url` (the last address after any redirects).
    case httpStatus(code: Int, url: String)
    /// No answer from `url`: the connection was refused, the name did not resolve, the connection timed out.
    /// `reason` is libcurl's own text.
    case unreachable(url: String, reason: String)
    /// The body stopped before its end, after `received` bytes of `expected` (`nil` when the server did not say);
    /// the partial file keeps them.
    case interrupted(received: Int64, expected: Int64?)
    /// A write into `path` failed with `ENOSPC` or `EDQUOT`.
    case diskFull(path: String)
    /// `path` could not be created, opened, read or written; `reason` is the system's text for the `errno`.
    case fileError(path: String, reason: String)
    /// A document larger than the `limit` its reader accepts, in bytes.
    case tooLarge(limit: Int64)
    /// A downloaded file of `actual` bytes where `expected` were announced.
    case sizeMismatch(expected: Int64, actual: Int64)
    /// A downloaded file whose checksum of `kind` (`MD5`, `SHA-1`) is `actual` where `expected` was announced
    /// (lowercase hexadecimal).
    case checksumMismatch(kind: String, expected: String, actual: String)
    /// libcurl could not even prepare the transfer; `reason` is its text.
    case setupFailed(reason: String)
    /// An address a file is not downloaded from: not https, nor http on this machine (`file://` reads the local disk).
    case refusedAddress(url: String)
    /// The server at `from` redirected to `to`, an address not downloaded from, or plain http after https.
    case refusedRedirect(from: String, to: String)
    /// The server announced a file of `announced` bytes, or (`nil`) sent more, where at most `limit` are expected.
    case largerThanExpected(limit: Int64, announced: Int64?)
    /// Writing `needed` more bytes into `path` would leave less than `keptFree` of the `free` bytes on its disk.
    case noRoom(path: String, needed: Int64, free: Int64, keptFree: Int64)

    /// What went wrong, in a sentence for the user.
    public var message: String {
        switch self {
        case .cancelled:
            return "The download was cancelled."
        case .httpStatus(let code, let url):
            let phrase = Self.reasonPhrases[code].map { " (\($0))" } ?? ""
            return "The server answered \(code)\(phrase) for \(url)."
        case .unreachable(let url, let reason):
            return "Could not reach \(url): \(reason)."
        case .interrupted(let received, let expected):
            let size = expected.map { " of \(Self.text(forByteCount: $0))" } ?? ""
            return "The download stopped after \(Self.text(forByteCount: received))\(size); "
                + "it resumes where it stopped when installed again."
        case .diskFull(let path):
            return "No space left on the disk for \(path)."
        case .fileError(let path, let reason):
            return "Cannot use the file \(path): \(reason)."
        case .tooLarge(let limit):
            return "The document is larger than \(Self.text(forByteCount: limit)), the most that is accepted."
        case .sizeMismatch(let expected, let actual):
            return "The downloaded file has \(actual) bytes where \(expected) were expected; it is incomplete or damaged."
        case .checksumMismatch(let kind, let expected, let actual):
            return "The downloaded file's \(kind) checksum is \(actual) where \(expected) was expected; it is damaged."
        case .setupFailed(let reason):
            return "libcurl could not prepare the download: \(reason)."
        case .refusedAddress(let url):
            return "Files are downloaded only over https (plain http only from this machine), not from \(url)."
        case .refusedRedirect(let from, let to):
            return "The server at \(from) redirected the download to \(to), which is not https; the redirect was not followed."
        case .largerThanExpected(let limit, nil):
            return "The server sent more than the \(Self.text(forByteCount: limit)) expected for this file; the download was stopped there."
        case .largerThanExpected(let limit, let announced?):
            return "The server announced \(Self.text(forByteCount: announced)) for a file of \(Self.text(forByteCount: limit)); "
                + "nothing was downloaded."
        case .noRoom(let path, let needed, let free, let keptFree):
            return "Not enough room on the disk for \(path): the download needs \(Self.text(forByteCount: needed)) more and "
                + "\(Self.text(forByteCount: keptFree)) stay free, but \(Self.text(forByteCount: free)) are free."
        }
    }

    /// The statuses a download server plausibly answers, named as RFC 9110 names them.
    private static let reasonPhrases: [Int: String] = [
        400: "Bad Request", 401: "Unauthorized", 403: "Forbidden", 404: "Not Found", 405: "Method Not Allowed",
        408: "Request Timeout", 410: "Gone", 416: "Range Not Satisfiable", 429: "Too Many Requests",
        500: "Internal Server Error", 501: "Not Implemented", 502: "Bad Gateway", 503: "Service Unavailable",
        504: "Gateway Timeout",
    ]

    /// A size as people read it, in decimal units with one decimal: `12.3 MB`; `512 bytes` below a kilobyte.
    public static func text(forByteCount count: Int64) -> String {
        let units: [(size: Int64, name: String)] = [
            (1_000_000_000_000, "TB"), (1_000_000_000, "GB"), (1_000_000, "MB"), (1_000, "kB"),
        ]
        guard let unit = units.first(where: { count >= $0.size }) else { return "\(count) bytes" }
        // Divided before it is rounded: `count * 10` overflows for a length a server made up.
        let tenth = unit.size / 10
        let tenths = count / tenth + (count % tenth >= tenth / 2 ? 1 : 0)
        return "\(tenths / 10).\(tenths % 10) \(unit.name)"
    }
}
