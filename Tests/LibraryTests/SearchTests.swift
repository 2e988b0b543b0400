import Library
import Testing

@Suite("Full-text search")
struct SearchTests {
    let store = TemporaryStore()

    @Test("Diacritics are ignored both ways: cafe finds café, and café finds cafe")
    func diacritics() throws {
        let memos = try store.open()
        try memos.insert(TemporaryStore.memo(1, transcript: "meet at the café at noon"))
        try memos.insert(TemporaryStore.memo(2, transcript: "the cafe downstairs is closed"))
        #expect(Set(try memos.search("cafe", limit: 10).map(\.id)) == ["1", "2"])
        #expect(Set(try memos.search("café", limit: 10).map(\.id)) == ["1", "2"])
    }

    @Test("The written text is what is searched: BP finds the memo where b p was said, also once saved again")
    func writtenText() throws {
        let memos = try store.open()
        try memos.insert(TemporaryStore.memo(1, transcript: "the b p is high period", written: "The BP is high."))
        #expect(try memos.search("BP", limit: 10).map(\.id) == ["1"])
        #expect(try memos.search("period", limit: 10).isEmpty, "a spoken command is not written")
        try memos.update("1") { $0.written = "The blood pressure is high." }
        #expect(try memos.search("BP", limit: 10).isEmpty)
        #expect(try memos.search("pressure", limit: 10).map(\.snippet) == ["The blood «pressure» is high."])
    }

    @Test("The memo that says it most ranks first, and the snippet marks the match")
    func ranking() throws {
        let memos = try store.open()
        try memos.insert(TemporaryStore.memo(1, transcript: "one mention of budget among many other words here today"))
        try memos.insert(TemporaryStore.memo(2, transcript: "budget budget budget"))
        try memos.insert(TemporaryStore.memo(3, transcript: "nothing relevant"))
        let hits = try memos.search("budget", limit: 10)
        #expect(hits.map(\.id) == ["2", "1"])
        #expect(hits[1].snippet.contains("«budget»"))
        #expect(try memos.search("budget", limit: 1).count == 1)
    }

    @Test("Titles are searched too, and prefixes and phrases work")
    func syntax() throws {
        let memos = try store.open()
        try memos.insert(TemporaryStore.memo(1, title: "Dentist", transcript: "call on monday morning"))
        #expect(try memos.search("dent*", limit: 10).map(\.id) == ["1"])
        #expect(try memos.search("\"monday morning\"", limit: 10).map(\.id) == ["1"])
        #expect(try memos.search("\"morning monday\"", limit: 10).isEmpty)
    }

    @Test("A malformed query is a bad query, not a storage failure", arguments: ["\"unclosed", "AND", "budget NOT", "(a"])
    func badQuery(query: String) throws {
        let memos = try store.open()
        try memos.insert(TemporaryStore.memo(1, transcript: "budget"))
        #expect {
            try memos.search(query, limit: 10)
        } throws: { error in
            if case .badSearchQuery = error as? LibraryError { true } else { false }
        }
        // The store still answers afterwards.
        #expect(try memos.search("budget", limit: 10).map(\.id) == ["1"])
    }
}
