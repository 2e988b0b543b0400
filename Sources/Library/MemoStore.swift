import FoundationEssentials
import Recording

#if canImport(Glibc)
    import Glibc
#endif

/// The memo library on disk: one SQLite file in WAL mode (a reader never waits for the writer,
/// and a killed process loses no committed row), with full-text search over titles and written texts.
///
/// Not thread-safe: owned by one actor.
public final class MemoStore {
    private let connection: SQLiteConnection
    /// Room kept for the library's own writes on a disk that fills up; none for a reading connection.
    private let reserve: SpaceReserve?
    private static let columns = "id, title, created, duration, locale, status, audio_file, transcript, words, failure, written, model, utterance_models"
    private static let summaryColumns = "id, title, created, duration, locale, status, audio_file, '', '[]', failure, '', model, utterance_models"

    /// Opens the store at `path` (creating it), bringing its schema up to date.
    /// - Throws: `LibraryError.storage` when the file cannot be opened or migrated.
    public init(path: String) throws(LibraryError) {
        try Self.createPrivately(path)
        connection = try SQLiteConnection(path: path)
        // secure_delete: a deleted memo's text is overwritten with zeros, not left in free pages.
        try connection.execute(
            "PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON; PRAGMA secure_delete = ON")
        try Schema.migrate(connection)
        reserve = SpaceReserve(path: Self.reservePath(besides: path))
        reserve?.ensure()
    }

    /// Where the reserve of the library at `path` is: `library.reserve` beside `library.sqlite3`.
    public static func reservePath(besides path: String) -> String {
        String(path[..<(path.lastIndex(of: ".") ?? path.endIndex)]) + ".reserve"
    }

    /// The bytes the reserve of a library in `folder` takes: what a recording on the same disk leaves free.
    public static func reserveSize(inFolder folder: String) -> UInt64 { SpaceReserve.size(on: folder) }

    /// Opens a second connection to the store another `MemoStore` opened, for reading only: in
    /// WAL mode it reads while that one writes, so a long search holds up nothing.
    public init(readingFrom path: String) throws(LibraryError) {
        connection = try SQLiteConnection(path: path, readOnly: true)
        reserve = nil
    }

    /// Memos are clinical notes: the folder is the user's alone (0700) and so is the file (0600),
    /// which SQLite's -wal and -shm files copy their permissions from.
    private static func createPrivately(_ path: String) throws(LibraryError) {
        guard !FileManager.default.fileExists(atPath: path) else { return }
        do throws(FileError) {
            try PrivateFiles.makeFolder(PrivateFiles.parent(of: path))
            close(try PrivateFiles.create(path))
        } catch { throw .storage(code: SQLITE_CANTOPEN_CODE, message: error.message) }
    }

    /// Adds a memo; its id must be new.
    public func insert(_ memo: Memo) throws(LibraryError) {
        try transaction { () throws(LibraryError) in
            try connection.statement(
                "INSERT INTO memo (\(Self.columns)) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", try Self.values(of: memo)
            ).run()
        }
    }

    /// Writes every field of `memo` over its row.
    /// - Throws: `LibraryError.noSuchMemo` when there is no row with its id.
    public func save(_ memo: Memo) throws(LibraryError) {
        try transaction { () throws(LibraryError) in
            let values = try Self.values(of: memo)
            try connection.statement(
                """
                UPDATE memo SET title = ?2, created = ?3, duration = ?4, locale = ?5, status = ?6, audio_file = ?7,
                transcript = ?8, words = ?9, failure = ?10, written = ?11, model = ?12, utterance_models = ?13 WHERE id = ?1
                """, values
            ).run()
            guard connection.changes == 1 else { throw .noSuchMemo(memo.id) }
        }
    }

    /// Reads, changes and writes back one memo in one transaction.
    /// - Returns: the memo as saved.
    @discardableResult
    public func update(_ id: String, _ change: (inout Memo) -> Void) throws(LibraryError) -> Memo {
        try transaction { () throws(LibraryError) in
            guard var memo = try memo(id) else { throw .noSuchMemo(id) }
            change(&memo)
            try save(memo)
            return memo
        }
    }

    /// Removes the row and its search entry, leaving none of its words in the files (the caller
    /// removes the audio with it).
    /// - Throws: `LibraryError.noSuchMemo` when there is no row with this id.
    public func delete(_ id: String) throws(LibraryError) {
        let kept = try connection.statement("SELECT title, created, transcript != '' FROM memo WHERE id = ?", [.text(id)]).firstRow {
            (title: $0.text(0) ?? "", created: $0.integer(1), transcribed: $0.integer(2) != 0)
        }
        guard let kept else { throw .noSuchMemo(id) }
        let hadWords = kept.transcribed || kept.title != Memo.defaultTitle(created: kept.created, timeZone: .current)
        try transaction { () throws(LibraryError) in
            try connection.statement("DELETE FROM memo WHERE id = ?", [.text(id)]).run()
            guard connection.changes == 1 else { throw .noSuchMemo(id) }
        }
        // A discarded recording's row held only its start time: nothing of the user's to merge out
        // or copy back, and the merge costs 1.4 s of the bus thread over 100 000 memos.
        guard hadWords else { return }
        mergeSearchIndex()
        // The WAL still holds the pages as they were before: copied back and emptied now. A search
        // reading past the busy timeout keeps it (the delete is done): the next delete empties it.
        try? connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    }

    private func mergeSearchIndex() {
        // FTS5 marks a deleted row's words as deleted and keeps them in its index until its
        // segments are merged: merged into one now, which leaves them out. The merge rewrites the
        // index, so a disk too full for it (the reserve is kept for rows) leaves it to the next delete
        // of a memo with words.
        let merge = "INSERT INTO memo_text(memo_text) VALUES ('optimize')"
        _ = try? attempt { () throws(LibraryError) in try connection.execute(merge) }
    }

    public func memo(_ id: String) throws(LibraryError) -> Memo? {
        try memos("SELECT \(Self.columns) FROM memo WHERE id = ?", [.text(id)]).first
    }

    /// The memo without its transcript and words (left empty): what its bus properties show,
    /// read without decoding the text.
    public func summary(_ id: String) throws(LibraryError) -> Memo? {
        try memos("SELECT \(Self.summaryColumns) FROM memo WHERE id = ?", [.text(id)]).first
    }

    /// A page of memos without their transcripts and words, oldest first, from the one after
    /// `memo` (from the first when nil): for listing every memo a page at a time.
    public func summaries(after memo: Memo?, limit: Int) throws(LibraryError) -> [Memo] {
        try memos(
            "SELECT \(Self.summaryColumns) FROM memo WHERE (created, id) > (?, ?) ORDER BY created, id LIMIT ?",
            [.integer(memo?.created ?? .min), .text(memo?.id ?? ""), .integer(Int64(limit))])
    }

    /// Calls `body` with every memo's id and audio file, one row at a time: the check at start,
    /// which should not hold a large library in memory to read two columns.
    public func forEachAudioFile(_ body: (_ id: String, _ audioFile: String) -> Void) throws(LibraryError) {
        let statement = try connection.statement("SELECT id, audio_file FROM memo")
        while try statement.step() { body(statement.text(0) ?? "", statement.text(1) ?? "") }
    }

    /// The id of the memo recorded into `audioFile`.
    public func id(ofAudioFile audioFile: String) throws(LibraryError) -> String? {
        let statement = try connection.statement("SELECT id FROM memo WHERE audio_file = ?", [.text(audioFile)])
        return try statement.firstRow { $0.text(0) } ?? nil
    }

    public func count() throws(LibraryError) -> Int {
        let statement = try connection.statement("SELECT count(*) FROM memo")
        return try statement.firstRow { Int($0.integer(0)) } ?? 0
    }

    /// The ids of a page of memos, newest first.
    public func list(offset: Int, limit: Int) throws(LibraryError) -> [String] {
        let statement = try connection.statement(
            "SELECT id FROM memo ORDER BY created DESC, id DESC LIMIT ? OFFSET ?", [.integer(Int64(limit)), .integer(Int64(offset))])
        var ids: [String] = []
        while try statement.step() { ids.append(statement.text(0) ?? "") }
        return ids
    }

    /// Every memo in one of `statuses`, oldest first: what recovery at start looks at.
    public func memos(withStatus statuses: [MemoStatus]) throws(LibraryError) -> [Memo] {
        let marks = statuses.map { _ in "?" }.joined(separator: ", ")
        return try memos(
            "SELECT \(Self.columns) FROM memo WHERE status IN (\(marks)) ORDER BY created", statuses.map { .text($0.rawValue) })
    }

    /// A query matching more memos than this ranks the newest this many of them. Ranking reads
    /// every match's column sizes, so a word found in nearly every memo took 50 ms to rank over
    /// 100 000 of them; the newest thousand take under 2 ms, and are what a user looks for.
    public static let rankedMatches = 1000

    /// The memos whose title or written text match `query` (FTS5 syntax: words, "phrases", prefix*,
    /// AND/OR/NOT), best first (by bm25 among the newest `rankedMatches` matches), diacritics
    /// ignored, each with the text around its match.
    /// - Throws: `LibraryError.badSearchQuery` when the query is not valid FTS5.
    public func search(_ query: String, limit: Int) throws(LibraryError) -> [SearchHit] {
        do throws(LibraryError) {
            let ranked = try connection.statement(
                """
                SELECT rowid FROM (
                    SELECT rowid, bm25(memo_text) AS score FROM memo_text WHERE memo_text MATCH ?1 ORDER BY rowid DESC LIMIT ?2)
                ORDER BY score LIMIT ?3
                """, [.text(query), .integer(Int64(max(limit, Self.rankedMatches))), .integer(Int64(limit))])
            var rows: [Int64] = []
            while try ranked.step() { rows.append(ranked.integer(0)) }
            // Each hit's snippet is made alone: made in the ranking query, it would be made for
            // every match ranked.
            var hits: [SearchHit] = []
            for row in rows {
                let snippet = try connection.statement(
                    """
                    SELECT memo.id, snippet(memo_text, -1, '«', '»', '…', 12) FROM memo_text
                    JOIN memo ON memo.seq = memo_text.rowid WHERE memo_text MATCH ?1 AND memo_text.rowid = ?2
                    """, [.text(query), .integer(row)])
                if let hit = try snippet.firstRow({ SearchHit(id: $0.text(0) ?? "", snippet: $0.text(1) ?? "") }) { hits.append(hit) }
            }
            return hits
        } catch .storage(let code, let message) where code == SQLITE_ERROR_CODE {
            // The statements prepared, so a plain SQLITE_ERROR while stepping is the query text's.
            throw .badSearchQuery(message)
        }
    }

    private func memos(_ sql: String, _ arguments: [SQLValue]) throws(LibraryError) -> [Memo] {
        let statement = try connection.statement(sql, arguments)
        var memos: [Memo] = []
        while try statement.step() { memos.append(Self.memo(from: statement)) }
        return memos
    }

    /// The memo in the statement's current row, whose columns are `columns` or `summaryColumns`.
    private static func memo(from statement: Statement) -> Memo {
        var memo = Memo(id: statement.text(0) ?? "", created: statement.integer(2), locale: "", audioFile: "")
        memo.title = statement.text(1) ?? ""
        memo.duration = statement.real(3)
        memo.locale = statement.text(4) ?? ""
        memo.status = MemoStatus(rawValue: statement.text(5) ?? "") ?? .failed
        memo.audioFile = statement.text(6) ?? ""
        memo.transcript = statement.text(7) ?? ""
        memo.words = (try? JSONDecoder().decode([Word].self, from: Data((statement.text(8) ?? "[]").utf8))) ?? []
        memo.failure = statement.text(9)
        memo.written = statement.text(10) ?? ""
        memo.model = statement.text(11) ?? ""
        memo.utteranceModels =
            (try? JSONDecoder().decode([UtteranceModel].self, from: Data((statement.text(12) ?? "[]").utf8))) ?? []
        return memo
    }

    private static func values(of memo: Memo) throws(LibraryError) -> [SQLValue] {
        let words: String
        let utteranceModels: String
        do {
            words = String(decoding: try JSONEncoder().encode(memo.words), as: UTF8.self)
            utteranceModels = String(decoding: try JSONEncoder().encode(memo.utteranceModels), as: UTF8.self)
        } catch {
            throw .storage(code: SQLITE_ERROR_CODE, message: "Cannot encode the word timings: \(error)")
        }
        return [
            .text(memo.id), .text(memo.title), .integer(memo.created), .real(memo.duration), .text(memo.locale),
            .text(memo.status.rawValue), .text(memo.audioFile), .text(memo.transcript), .text(words),
            memo.failure.map { .text($0) } ?? .null, .text(memo.written), .text(memo.model),
            .text(utteranceModels),
        ]
    }

    /// Runs `body` in one transaction; nested calls join the outer one. A transaction the disk
    /// has no room for runs again once the reserve has given its room back.
    private var depth = 0
    private func transaction<T>(_ body: () throws(LibraryError) -> T) throws(LibraryError) -> T {
        guard depth == 0 else { return try attempt(body) }
        do throws(LibraryError) {
            let result = try attempt(body)
            reserve?.ensure()
            return result
        } catch  where error.isDiskFull && reserve?.release() == true {
            return try attempt(body)
        }
    }

    private func attempt<T>(_ body: () throws(LibraryError) -> T) throws(LibraryError) -> T {
        if depth == 0 { try connection.execute("BEGIN IMMEDIATE") }
        depth += 1
        defer { depth -= 1 }
        do throws(LibraryError) {
            let result = try body()
            if depth == 1 { try connection.execute("COMMIT") }
            return result
        } catch {
            if depth == 1 { try? connection.execute("ROLLBACK") }
            throw error
        }
    }
}

@available(*, unavailable) extension MemoStore: Sendable {}
