/// A download of one file, such as a large archive, into a partial file that a later download of it resumes.
///
/// The body is written as it arrives, never held whole. A partial file that already holds bytes (an
/// interrupted download's) is resumed with `Range: bytes=N-`: a 206 from offset N appends to it; a 200,
/// or a 416 (the server has no such range), starts it over.
///
/// Only https addresses are downloaded from (and plain http on this machine, see `DownloadAddress`); the file
/// never grows past the size the caller expects, nor into the room its disk keeps free.
///
/// One `run` at a time. Once cancelled, a download stays cancelled: a new one of the same partial file resumes it.
public final class HTTPDownload: Sendable {
    /// Where the file is downloaded from.
    public let url: String
    /// Where the file is written while it downloads; it is kept when the download fails with bytes in it.
    public let partialFile: String
    /// The most bytes the file may have: a server that announces or sends more is stopped.
    public let maximumBytes: Int64
    /// The bytes the download leaves free on the disk of `partialFile`.
    public let keptFree: Int64
    private let cancellation = TransferCancellation()

    /// - Parameters:
    ///   - url: Where the file is downloaded from: an https:// address, or an http:// one on this machine.
    ///   - partialFile: Where it is written: created 0600 (its folder 0700) when missing, resumed when it holds bytes.
    ///   - maximumBytes: The most bytes the file may have, such as the size its publisher gives for it.
    ///   - keptFree: The bytes the download leaves free on the disk of `partialFile`.
    public init(url: String, partialFile: String, maximumBytes: Int64, keepingFree keptFree: Int64 = 0) {
        self.url = url
        self.partialFile = partialFile
        self.maximumBytes = maximumBytes
        self.keptFree = keptFree
    }

    /// Downloads the file to its end, on a thread of its own.
    ///
    /// The connection must be made within 15 s, and a transfer that delivers less than a byte a second for
    /// 30 s fails; up to 5 redirects are followed. A partial file that holds bytes is kept whatever happens,
    /// for the caller to resume or delete; an empty one is removed when the download fails.
    /// - Parameter progress: Called after each piece written (of at most 16 KiB), on the download's
    ///   thread, with the bytes the file holds (resumed ones included) and the whole size when the server
    ///   tells it; the values never decrease within an attempt.
    /// - Throws: `.refusedAddress` for an address not downloaded from, before the partial file is made;
    ///   `.cancelled` after `cancel()` or when the awaiting task is cancelled; `.httpStatus` for
    ///   an HTTP error; `.unreachable` when no answer came; `.refusedRedirect`; `.largerThanExpected` when the
    ///   server announces or sends more than `maximumBytes`; `.interrupted` when the body stopped before
    ///   its end; `.noRoom` before the download would take the room kept free; `.diskFull` or `.fileError`
    ///   when the partial file cannot be written; `.setupFailed`.
    public func run(progress: @escaping @Sendable (_ received: Int64, _ total: Int64?) -> Void) async throws(DownloadError) {
        try DownloadAddress.check(url)
        try await cancellation.perform { [self] () throws(DownloadError) in
            let file = try PartialFile(path: partialFile)
            do throws(DownloadError) {
                let size = try file.size
                // More than the whole can only be left by another file's download: started over.
                if size > 0, size <= maximumBytes, try download(into: file, resumingAfter: size, progress: progress) { return }
                try download(into: file, resumingAfter: nil, progress: progress)
            } catch {
                // An empty file has nothing to resume: a failure before the first byte leaves no file behind.
                file.removeIfEmpty()
                throw error
            }
        }
    }

    /// Makes `run` end with `.cancelled` at libcurl's next progress call (within a second, most often at
    /// once); callable from any thread.
    public func cancel() {
        cancellation.cancel()
    }

    /// One attempt: the rest of the file after `offset`, or the whole.
    /// - Returns: `false` when the server would not send the rest (a 416, or another range than asked
    ///   for); a request of the whole file always returns `true` or throws.
    @discardableResult
    private func download(
        into file: PartialFile, resumingAfter offset: Int64?, progress: @escaping @Sendable (Int64, Int64?) -> Void
    ) throws(DownloadError) -> Bool {
        let room = DiskRoom(path: partialFile, keptFree: keptFree)
        let body = PartialFileBody(file: file, resumeOffset: offset, limit: maximumBytes, room: room, progress: progress)
        let transfer = try CurlTransfer(
            url: url, range: offset.map { "\($0)-" }, into: body, cancellation: cancellation, allowingFileURLs: false)
        do throws(DownloadError) {
            return try transfer.perform() == .received
        } catch .httpStatus(code: 416, url: _) where offset != nil {
            return false
        } catch .unreachable where body.hasBegun {
            throw .interrupted(received: body.received, expected: body.total)
        }
    }
}
