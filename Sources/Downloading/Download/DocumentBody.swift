/// A small document's body, gathered in memory up to a limit.
final class DocumentBody: ResponseBody {
    private let limit: Int
    private(set) var bytes: [UInt8] = []

    /// - Parameter limit: The most bytes accepted.
    init(limit: Int) {
        self.limit = limit
    }

    /// - Throws: `.tooLarge` when the announced length is over the limit, before any byte arrives.
    func begin(_ response: ResponseHead) throws(DownloadError) -> Bool {
        if let length = response.contentLength {
            guard length <= limit else { throw .tooLarge(limit: Int64(limit)) }
            bytes.reserveCapacity(Int(length))
        }
        return true
    }

    /// - Throws: `.tooLarge` when the body grows over the limit, as one sent without a length can.
    func append(_ piece: UnsafeRawBufferPointer) throws(DownloadError) {
        guard bytes.count + piece.count <= limit else { throw .tooLarge(limit: Int64(limit)) }
        bytes.append(contentsOf: piece)
    }
}
