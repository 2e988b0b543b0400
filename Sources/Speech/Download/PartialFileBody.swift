/// A download's body, written into the partial file as it arrives, after the bytes a former attempt
/// left there when the server sends the rest.
final class PartialFileBody: ResponseBody {
    private let file: PartialFile
    /// Where the Range asked to start; `nil` when it asked for the whole file.
    private let resumeOffset: Int64?
    private let progress: @Sendable (_ received: Int64, _ total: Int64?) -> Void
    /// Whether a response was accepted: a failure after it interrupts the download, one before it means
    /// the server was not reached.
    private(set) var hasBegun = false
    /// The bytes the file holds, those of a former attempt included.
    private(set) var received: Int64 = 0
    /// The whole file's size, when the server told it.
    private(set) var total: Int64?

    /// - Parameters:
    ///   - file: The partial file.
    ///   - resumeOffset: The bytes already in `file` that the request asked the rest after; `nil` to take the whole.
    ///   - progress: Called after each piece is written.
    init(file: PartialFile, resumeOffset: Int64?, progress: @escaping @Sendable (_ received: Int64, _ total: Int64?) -> Void) {
        self.file = file
        self.resumeOffset = resumeOffset
        self.progress = progress
    }

    /// Places the file: after its bytes for the rest of it, at its start for the whole.
    /// - Returns: `false` for a 206 of another range than asked for, which cannot follow the bytes there.
    ///   A request without Range takes whatever comes as the whole file.
    func begin(_ response: ResponseHead) throws(DownloadError) -> Bool {
        let start: Int64
        switch response.status {
        case 206 where resumeOffset != nil:
            guard let range = response.contentRange, range.first == resumeOffset else { return false }
            start = range.first
            total = range.completeLength
        case 0:
            // A file:// transfer carries no status: libcurl reads from the offset asked for itself.
            start = resumeOffset ?? 0
            total = response.contentLength.map { start + $0 }
        default:
            // The whole file (a server that ignores Range answers 200): what a former attempt left goes.
            start = 0
            total = response.contentLength
        }
        try file.keepFirst(start)
        received = start
        hasBegun = true
        return true
    }

    func append(_ bytes: UnsafeRawBufferPointer) throws(DownloadError) {
        try file.write(bytes)
        received += Int64(bytes.count)
        progress(received, total)
    }
}
