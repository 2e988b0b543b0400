/// What can go wrong in the memo store, keeping what SQLite said.
public enum LibraryError: Error, Equatable, CustomStringConvertible {
    /// SQLite failed: its result code and message (a full disk, a corrupt file, a locked database).
    case storage(code: Int32, message: String)
    /// The search text is not a valid FTS5 query (an unbalanced quote, a dangling operator): the
    /// user's mistake, to be told back, not a failure of the store.
    case badSearchQuery(String)
    /// No memo has this id.
    case noSuchMemo(String)

    /// SQLite found no room on the disk for the write.
    public var isDiskFull: Bool {
        guard case .storage(let code, _) = self else { return false }
        return code & 0xff == SQLITE_FULL_CODE
    }

    public var description: String {
        switch self {
        case .storage(let code, let message): "SQLite error \(code): \(message)"
        case .badSearchQuery(let message): "Bad search query: \(message)"
        case .noSuchMemo(let id): "No memo \(id)"
        }
    }
}
