import DBus
import Library

/// Search on a reading connection of its own, off the bus thread: a query that ranks many
/// matches takes milliseconds, and the bus answers other calls meanwhile (WAL lets it read while
/// the library writes).
actor LibraryReader {
    private let store: MemoStore

    init(_ store: MemoStore) { self.store = store }

    func search(_ query: String, limit: Int) throws(BusError) -> [SearchHit] {
        do throws(LibraryError) { return try store.search(query, limit: limit) } catch { throw BusError(error) }
    }
}
