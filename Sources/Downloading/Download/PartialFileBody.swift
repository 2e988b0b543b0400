/// A download's body, written into the partial file as it arrives, after the bytes a former attempt
/// left there when the server sends the rest.
///
/// The file never grows past the size the caller expects, whatever the server announces or sends, nor into
/// the room its disk keeps free.
final class PartialFileBody: ResponseBody {
    private let file: PartialFile
    /// Where the Range asked to start; `nil` when it asked for the whole file.
    private let resumeOffset: Int64?
    /// The most bytes the whole file may have.
    private let limit: Int64
    private let room: DiskRoom
    private let progress: @Sendable (_ received: Int64, _ total: Int64?) -> Void
    /// Whether a response was accepted: a failure after it interrupts the download, one before it means
    /// the server was not reached.
    private(set) var hasBegun = false
    /// The bytes the file holds, those of a former attempt included; never more than `limit`.
    private(set) var received: Int64 = 0
    /// The whole file's size, when the server told it; never more than `limit`.
    private(set) var total: Int64?

    /// - Parameters:
    ///   - file: The partial file.
    ///   - resumeOffset: The bytes already in `file` that the request asked the rest after, at most `limit`;
    ///     `nil` to take the whole.
    ///   - limit: The most bytes the whole file may have.
    ///   - room: What the download may take of its disk.
    ///   - progress: Called after each piece is written.
    init(
        file: PartialFile, resumeOffset: Int64?, limit: Int64, room: DiskRoom,
        progress: @escaping @Sendable (_ received: Int64, _ total: Int64?) -> Void
    ) {
        self.file = file
        self.resumeOffset = resumeOffset
        self.limit = limit
        self.room = room
        self.progress = progress
    }

    /// Places the file: after its bytes for the rest of it, at its start for the whole.
    /// - Returns: `false` for a 206 of another range than asked for, which cannot follow the bytes there.
    ///   A request without Range takes whatever comes as the whole file.
    /// - Throws: `.largerThanExpected` when the response announces more than `limit`, `.noRoom` when the disk
    ///   lacks room for what is announced (or, without a length, for `limit`); before a byte is written.
    func begin(_ response: ResponseHead) throws(DownloadError) -> Bool {
        let start: Int64
        let announced: Int64?
        switch response.status {
        case 206 where resumeOffset != nil:
            guard let range = response.contentRange, range.first == resumeOffset else { return false }
            start = range.first
            announced = range.completeLength ?? Self.sum(range.first, response.contentLength)
        default:
            // The whole file (a server that ignores Range answers 200): what a former attempt left goes.
            start = 0
            announced = response.contentLength
        }
        if let announced, announced > limit { throw .largerThanExpected(limit: limit, announced: announced) }
        try checkRoom(needing: (announced ?? limit) - start)
        try file.keepFirst(start)
        received = start
        total = announced
        hasBegun = true
        return true
    }

    /// - Throws: `.largerThanExpected` for a body that would pass `limit`, `.noRoom` when other writers took the
    ///   room the rest needs; `.diskFull` or `.fileError` when the write fails.
    func append(_ bytes: UnsafeRawBufferPointer) throws(DownloadError) {
        let count = Int64(bytes.count)
        guard count <= limit - received else { throw .largerThanExpected(limit: limit, announced: nil) }
        if DiskRoom.isCheckDue(from: received, to: received + count) {
            try checkRoom(needing: (total ?? limit) - received)
        }
        try file.write(bytes)
        received += count
        progress(received, total)
    }

    private func checkRoom(needing needed: Int64) throws(DownloadError) {
        guard let free = room.freeBytesWhenShort(needing: needed) else { return }
        throw .noRoom(path: room.path, needed: needed, free: free, keptFree: room.keptFree)
    }

    /// `first + length`, or `Int64.max` past it (a length a server made up); `nil` without a length.
    private static func sum(_ first: Int64, _ length: Int64?) -> Int64? {
        length.map { first.addingReportingOverflow($0).overflow ? .max : first + $0 }
    }
}
