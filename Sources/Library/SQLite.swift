import CSQLite

/// One SQLite connection. Every sqlite3 call of the Library module is in this file: one place to
/// audit how the memo store talks to SQLite.
final class SQLiteConnection {
    private let handle: OpaquePointer
    /// Prepared once and reused: the search and the list run the same few statements many times.
    private var statements: [String: Statement] = [:]

    /// Opens the database at `path` (creating it unless `readOnly`); `":memory:"` for one in memory.
    ///
    /// The corresponding C function is `sqlite3_open_v2`.
    init(path: String, readOnly: Bool = false) throws(LibraryError) {
        var handle: OpaquePointer?
        let access = readOnly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE
        let code = sqlite3_open_v2(path, &handle, access | SQLITE_OPEN_NOMUTEX, nil)
        guard code == SQLITE_OK, let handle else {
            let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
            sqlite3_close_v2(handle)
            throw .storage(code: code, message: "Cannot open \(path): \(message)")
        }
        self.handle = handle
        // A busy database (another notulad starting) waits a little instead of failing at once.
        sqlite3_busy_timeout(handle, 2000)
    }

    deinit {
        statements.values.forEach { $0.finalize() }
        sqlite3_close_v2(handle)
    }

    /// Runs statements that return no rows (schema, pragmas, transaction control).
    ///
    /// The corresponding C function is `sqlite3_exec`.
    func execute(_ sql: String) throws(LibraryError) {
        let code = sqlite3_exec(handle, sql, nil, nil, nil)
        guard code == SQLITE_OK else { throw error(code) }
    }

    /// The statement for `sql`, prepared on first use and reset for this one.
    ///
    /// The corresponding C function is `sqlite3_prepare_v2`.
    func statement(_ sql: String, _ arguments: [SQLValue] = []) throws(LibraryError) -> Statement {
        let statement: Statement
        if let cached = statements[sql] {
            statement = cached
            statement.reset()
        } else {
            var raw: OpaquePointer?
            let code = sqlite3_prepare_v2(handle, sql, -1, &raw, nil)
            guard code == SQLITE_OK, let raw else { throw error(code) }
            statement = Statement(raw, connection: self)
            statements[sql] = statement
        }
        try statement.bind(arguments)
        return statement
    }

    /// Rows changed by the last INSERT, UPDATE or DELETE.
    ///
    /// The corresponding C function is `sqlite3_changes`.
    var changes: Int { Int(sqlite3_changes(handle)) }

    /// The error SQLite reports for `code`, with its message.
    ///
    /// The corresponding C function is `sqlite3_errmsg`.
    func error(_ code: Int32) -> LibraryError {
        .storage(code: code, message: String(cString: sqlite3_errmsg(handle)))
    }
}

@available(*, unavailable) extension SQLiteConnection: Sendable {}

/// A value bound to a statement's parameter.
enum SQLValue {
    case integer(Int64)
    case real(Double)
    case text(String)
    case null
}

/// A prepared statement; its rows are read with `step()` and the column accessors.
final class Statement {
    private let raw: OpaquePointer
    private unowned let connection: SQLiteConnection

    fileprivate init(_ raw: OpaquePointer, connection: SQLiteConnection) {
        self.raw = raw
        self.connection = connection
    }

    /// The corresponding C functions are `sqlite3_reset` and `sqlite3_clear_bindings`.
    fileprivate func reset() {
        sqlite3_reset(raw)
        sqlite3_clear_bindings(raw)
    }

    /// The corresponding C function is `sqlite3_finalize`.
    fileprivate func finalize() { sqlite3_finalize(raw) }

    /// The corresponding C functions are the `sqlite3_bind_*` family.
    fileprivate func bind(_ arguments: [SQLValue]) throws(LibraryError) {
        for (offset, argument) in arguments.enumerated() {
            let index = Int32(offset + 1)
            let code =
                switch argument {
                case .integer(let value): sqlite3_bind_int64(raw, index, value)
                case .real(let value): sqlite3_bind_double(raw, index, value)
                case .text(let value): sqlite3_bind_text(raw, index, value, -1, CSQLite_transient())
                case .null: sqlite3_bind_null(raw, index)
                }
            guard code == SQLITE_OK else { throw connection.error(code) }
        }
    }

    /// Moves to the next row: false when there is none (or the statement wrote and is done).
    ///
    /// The corresponding C function is `sqlite3_step`.
    func step() throws(LibraryError) -> Bool {
        switch sqlite3_step(raw) {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        case let code:
            let error = connection.error(code)
            sqlite3_reset(raw)
            throw error
        }
    }

    /// Runs a statement that returns no rows.
    func run() throws(LibraryError) { _ = try step() }

    /// The first row as `read` reads it, nil when there is none. The statement is reset after:
    /// one left on a row would keep its read transaction open, holding the WAL back from
    /// checkpoints and locking tables against schema changes.
    func firstRow<T>(_ read: (Statement) -> T) throws(LibraryError) -> T? {
        defer { sqlite3_reset(raw) }
        return try step() ? read(self) : nil
    }

    /// The corresponding C function is `sqlite3_column_int64`.
    func integer(_ column: Int32) -> Int64 { sqlite3_column_int64(raw, column) }

    /// The corresponding C function is `sqlite3_column_double`.
    func real(_ column: Int32) -> Double { sqlite3_column_double(raw, column) }

    /// The corresponding C function is `sqlite3_column_text`; NULL reads as nil.
    func text(_ column: Int32) -> String? {
        guard let bytes = sqlite3_column_text(raw, column) else { return nil }
        return String(cString: bytes)
    }
}

@available(*, unavailable) extension Statement: Sendable {}

/// SQLite's result codes the rest of the module names, without importing the C module there.
let SQLITE_ERROR_CODE = SQLITE_ERROR
let SQLITE_CANTOPEN_CODE = SQLITE_CANTOPEN
let SQLITE_FULL_CODE = SQLITE_FULL
