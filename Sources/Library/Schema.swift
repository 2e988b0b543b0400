/// The store's schema as a list of migrations: migration n brings `user_version` from n to n + 1.
/// Append to change the schema; never edit one that has shipped.
enum Schema {
    static let migrations: [String] = [
        """
        CREATE TABLE memo (
            seq INTEGER PRIMARY KEY,
            id TEXT NOT NULL UNIQUE,
            title TEXT NOT NULL,
            created INTEGER NOT NULL,
            duration REAL NOT NULL DEFAULT 0,
            locale TEXT NOT NULL,
            status TEXT NOT NULL,
            audio_file TEXT NOT NULL,
            transcript TEXT NOT NULL DEFAULT '',
            words TEXT NOT NULL DEFAULT '[]',
            failure TEXT
        );
        CREATE INDEX memo_by_created ON memo(created DESC);
        CREATE VIRTUAL TABLE memo_text USING fts5(
            title, transcript, content='memo', content_rowid='seq',
            tokenize='unicode61 remove_diacritics 2');
        CREATE TRIGGER memo_text_insert AFTER INSERT ON memo BEGIN
            INSERT INTO memo_text(rowid, title, transcript) VALUES (new.seq, new.title, new.transcript);
        END;
        CREATE TRIGGER memo_text_delete AFTER DELETE ON memo BEGIN
            INSERT INTO memo_text(memo_text, rowid, title, transcript) VALUES ('delete', old.seq, old.title, old.transcript);
        END;
        CREATE TRIGGER memo_text_update AFTER UPDATE OF title, transcript ON memo BEGIN
            INSERT INTO memo_text(memo_text, rowid, title, transcript) VALUES ('delete', old.seq, old.title, old.transcript);
            INSERT INTO memo_text(rowid, title, transcript) VALUES (new.seq, new.title, new.transcript);
        END;
        """,
        // Prefix indexes for two and three letters: a prefix query ("kar*") read the doclist of
        // every word it matched; now it reads one.
        """
        DROP TABLE memo_text;
        CREATE VIRTUAL TABLE memo_text USING fts5(
            title, transcript, content='memo', content_rowid='seq',
            tokenize='unicode61 remove_diacritics 2', prefix='2 3');
        INSERT INTO memo_text(memo_text) VALUES ('rebuild');
        """,
        // The checks at start and Discard look memos up by their audio file, and recovery by
        // their status: without these, each read every row, transcripts included.
        "CREATE INDEX memo_by_audio_file ON memo(audio_file); CREATE INDEX memo_by_status ON memo(status);",
        // The written text beside the recognised words, and searched in their place: a search for "BP" finds the
        // memo where "b p" was said. Memos from before have the recognised words as their written text.
        """
        ALTER TABLE memo ADD COLUMN written TEXT NOT NULL DEFAULT '';
        DROP TRIGGER memo_text_insert;
        DROP TRIGGER memo_text_delete;
        DROP TRIGGER memo_text_update;
        DROP TABLE memo_text;
        UPDATE memo SET written = transcript;
        CREATE VIRTUAL TABLE memo_text USING fts5(
            title, written, content='memo', content_rowid='seq',
            tokenize='unicode61 remove_diacritics 2', prefix='2 3');
        CREATE TRIGGER memo_text_insert AFTER INSERT ON memo BEGIN
            INSERT INTO memo_text(rowid, title, written) VALUES (new.seq, new.title, new.written);
        END;
        CREATE TRIGGER memo_text_delete AFTER DELETE ON memo BEGIN
            INSERT INTO memo_text(memo_text, rowid, title, written) VALUES ('delete', old.seq, old.title, old.written);
        END;
        CREATE TRIGGER memo_text_update AFTER UPDATE OF title, written ON memo BEGIN
            INSERT INTO memo_text(memo_text, rowid, title, written) VALUES ('delete', old.seq, old.title, old.written);
            INSERT INTO memo_text(rowid, title, written) VALUES (new.seq, new.title, new.written);
        END;
        INSERT INTO memo_text(memo_text) VALUES ('rebuild');
        """,
        // Which model wrote a memo's text: several may serve one locale, and a memo can be transcribed again.
        "ALTER TABLE memo ADD COLUMN model TEXT NOT NULL DEFAULT '';",
        // Which model wrote each utterance, where Whisper's accurate pass wrote some and Vosk the others.
        "ALTER TABLE memo ADD COLUMN utterance_models TEXT NOT NULL DEFAULT '[]';",
    ]

    /// Brings the database up to the latest version, each migration in its own transaction.
    static func migrate(_ connection: SQLiteConnection) throws(LibraryError) {
        let statement = try connection.statement("PRAGMA user_version")
        let version = try statement.firstRow { Int($0.integer(0)) } ?? 0
        for (index, sql) in migrations.enumerated() where index >= version {
            try connection.execute("BEGIN IMMEDIATE")
            do throws(LibraryError) {
                try connection.execute(sql)
                try connection.execute("PRAGMA user_version = \(index + 1)")
                try connection.execute("COMMIT")
            } catch {
                try? connection.execute("ROLLBACK")
                throw error
            }
        }
    }
}
