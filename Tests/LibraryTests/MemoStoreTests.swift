import FoundationEssentials
import Library
import Recording
import Testing

@Suite("Memo store on a real SQLite file")
struct MemoStoreTests {
    let store = TemporaryStore()

    @Test("A memo written is read back whole, after the store is opened again")
    func roundTrip() throws {
        var memo = TemporaryStore.memo(1_764_452_820_000_000, transcript: "hello there")
        memo.failure = "none"
        memo.model = "ggml-tiny.en"
        memo.utteranceModels = [
            UtteranceModel(start: 0.5, end: 2.25, model: "ggml-tiny.en"),
            UtteranceModel(start: 3, end: 4, model: "vosk-model-small-en-us-0.15"),
        ]
        try store.open().insert(memo)
        let reopened = try store.open()
        #expect(try reopened.memo(memo.id) == memo)
        #expect(try reopened.count() == 1)
    }

    @Test("A summary is the row without its text, which stays on disk until asked for")
    func summaryLeavesTheText() throws {
        let memos = try store.open()
        for id in [2, 1] { try memos.insert(TemporaryStore.memo(Int64(id), transcript: "words of memo \(id)")) }
        var expected = try #require(try memos.memo("1"))
        expected.transcript = ""
        expected.words = []
        expected.written = ""
        #expect(try memos.summary("1") == expected)
        #expect(try memos.summary("3") == nil)
        let first = try memos.summaries(after: nil, limit: 1)
        #expect(first.map(\.id) == ["1"])
        #expect(try memos.summaries(after: first.last, limit: 10).map(\.id) == ["2"])
        #expect(try memos.summaries(after: nil, limit: 10).allSatisfy { $0.transcript.isEmpty && $0.words.isEmpty })
        #expect(try memos.id(ofAudioFile: "/tmp/2.wav") == "2")
    }

    @Test("A new memo is titled after its start time and starts out recording")
    func defaultTitle() {
        let memo = Memo(id: "1", created: 1_764_452_820_000_000, locale: "en-US", audioFile: "/a.wav", timeZone: .gmt)
        #expect(memo.title == "Memo 2025-11-29 21:47")
        #expect(memo.status == .recording)
    }

    @Test("List pages through the memos newest first")
    func listNewestFirst() throws {
        let memos = try store.open()
        for id in 1...5 { try memos.insert(TemporaryStore.memo(Int64(id), transcript: "memo \(id)")) }
        #expect(try memos.list(offset: 0, limit: 2) == ["5", "4"])
        #expect(try memos.list(offset: 3, limit: 10) == ["2", "1"])
        #expect(try memos.count() == 5)
    }

    @Test("An update changes the row and what search finds")
    func updateReindexes() throws {
        let memos = try store.open()
        try memos.insert(TemporaryStore.memo(1, title: "Groceries", transcript: "milk and bread"))
        try memos.update("1") { $0.title = "Shopping list" }
        #expect(try memos.search("groceries", limit: 10).isEmpty)
        #expect(try memos.search("shopping", limit: 10).map(\.id) == ["1"])
        #expect(try memos.memo("1")?.title == "Shopping list")
    }

    @Test("Delete removes the row; deleting it again says there is no such memo")
    func delete() throws {
        let memos = try store.open()
        try memos.insert(TemporaryStore.memo(1, transcript: "gone soon"))
        try memos.delete("1")
        #expect(try memos.memo("1") == nil)
        #expect(try memos.search("gone", limit: 10).isEmpty)
        #expect(throws: LibraryError.noSuchMemo("1")) { try memos.delete("1") }
        #expect(throws: LibraryError.noSuchMemo("1")) { try memos.update("1") { $0.title = "x" } }
    }

    @Test("A deleted memo's title and words are in none of the library's files: not in free pages, the search index or the WAL")
    func deleteLeavesNoTrace() throws {
        let memos = try store.open()
        for id in 1...30 { try memos.insert(TemporaryStore.memo(Int64(id), transcript: "an ordinary memo about the ward round \(id)")) }
        try memos.insert(TemporaryStore.memo(31, title: "Zebrafinch clinic", transcript: "the quokkalicious word of a private note"))
        try memos.update("31") { $0.title = "Zebrafinch consult" }
        #expect(try memos.search("quokkalicious", limit: 10).map(\.id) == ["31"])
        // Renamed while recording, and never transcribed: its title is the user's words too.
        try memos.insert(TemporaryStore.memo(32, title: "Okapirounds", transcript: ""))

        try memos.delete("31")
        try memos.delete("32")
        #expect(try memos.search("quokkalicious OR zebrafinch OR okapirounds", limit: 10).isEmpty)
        for word in ["quokkalicious", "zebrafinch", "okapirounds"] {
            #expect(try store.filesHolding(word).isEmpty, "\(word) is still in the library's files")
        }
        #expect(try memos.search("ward", limit: 50).count == 30)
    }

    @Test("The memos left recording or transcribing are found for recovery, oldest first")
    func unfinished() throws {
        let memos = try store.open()
        try memos.insert(TemporaryStore.memo(3, transcript: "", status: .transcribing))
        try memos.insert(TemporaryStore.memo(2, transcript: "done one"))
        try memos.insert(TemporaryStore.memo(1, transcript: "", status: .recording))
        #expect(try memos.memos(withStatus: [.recording, .transcribing]).map(\.id) == ["1", "3"])
    }
}
