import Library

/// Search on a reading connection of its own, off the library's executor: a query that ranks many
/// matches takes milliseconds, and the bus answers other calls meanwhile (WAL lets it read while
/// the library writes).
public actor LibraryReader {
    private let store: MemoStore

    init(_ store: MemoStore) { self.store = store }

    public func search(_ query: String, limit: Int) throws(MemoError) -> [SearchHit] {
        do throws(LibraryError) { return try store.search(query, limit: limit) } catch { throw MemoError(error) }
    }
}
