import Testing

@testable import Library

@Suite("The schema's migrations and the reading connection")
struct MigrationTests {
    let store = TemporaryStore()

    @Test("A library made by the first schema is brought up to date and still finds its memos, prefixes included")
    func fromTheFirstSchema() throws {
        do {
            let connection = try SQLiteConnection(path: store.path)
            try connection.execute(Schema.migrations[0])
            try connection.execute("PRAGMA user_version = 1")
            try connection.execute(
                """
                INSERT INTO memo (id, title, created, locale, status, audio_file, transcript)
                VALUES ('1', 'Ward round', 1, 'en-US', 'done', '/tmp/1.wav', 'the budget for the cardiology ward')
                """)
        }
        let memos = try store.open()
        #expect(try memos.search("cardio*", limit: 10).map(\.id) == ["1"])
        #expect(try memos.search("ward", limit: 10).map(\.id) == ["1"])
        let connection = try SQLiteConnection(path: store.path)
        let version = try connection.statement("PRAGMA user_version").firstRow { $0.integer(0) }
        #expect(version == Int64(Schema.migrations.count))
    }

    @Test("A reading connection finds what the library wrote after it opened, and cannot write")
    func readingConnection() throws {
        let memos = try store.open()
        let reader = try MemoStore(readingFrom: store.path)
        #expect(try reader.search("budget", limit: 10).isEmpty)
        try memos.insert(TemporaryStore.memo(1, transcript: "the budget meeting"))
        #expect(try reader.search("budget", limit: 10).map(\.id) == ["1"])
        #expect(throws: LibraryError.self) { try reader.insert(TemporaryStore.memo(2, transcript: "no")) }
    }

    @Test("A word in more memos than are ranked still gives a full page, the newest matches first among equals")
    func commonWord() throws {
        let memos = try store.open()
        let total = MemoStore.rankedMatches + 20
        for id in 1...total { try memos.insert(TemporaryStore.memo(Int64(id), transcript: "note \(id)")) }
        let hits = try memos.search("note", limit: 10)
        #expect(hits.count == 10)
        #expect(hits.allSatisfy { Int($0.id)! > total - MemoStore.rankedMatches })
        #expect(hits.allSatisfy { $0.snippet.contains("«note»") })
    }
}
