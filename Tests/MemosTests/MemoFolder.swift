import Audio
import FoundationEssentials
import Library
import Memos
import Recording

/// A memo library in a temporary folder of its own, over doubles of transcription and the models.
final class MemoFolder: Sendable {
    let path: String
    let calls = Recorded<SeamCall>()
    let events = Recorded<MemoEvent>()
    private let executor = QueueExecutor()

    var database: String { path + "/library.sqlite3" }
    var recordings: String { path + "/recordings" }
    var transcripts: String { path + "/transcripts" }

    init() throws {
        path = FileManager.default.temporaryDirectory.path + "/notula-memos-\(UInt64.random(in: 0 ... .max))"
        for folder in [recordings, transcripts] {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        }
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }

    /// The library, opened, transcribing in `locale` with `outcome`.
    func library(
        locale: String = "nl-NL", outcome: TranscriberDouble.Outcome = .text("hallo wereld", []),
        again: Result<String, RecordingError> = .success("goedemorgen wereld"), sound: any SoundPlaying = PulsePlayback()
    ) async throws -> MemoLibrary {
        let library = try MemoLibrary(
            executor: executor.asUnownedSerialExecutor(), store: database, recordingsFolder: recordings, transcriptsFolder: transcripts,
            transcriber: TranscriberDouble(calls: calls, locale: locale, outcome: outcome, again: again),
            models: ModelsDouble(calls: calls),
            playback: sound, repair: RecordingRepair.repair)
        try await library.open(reporting: ListenerDouble(events: events))
        return library
    }

    /// Starts the capture of `id` in `locale` and waits until its row is there.
    func startCapture(_ id: String, in library: MemoLibrary, locale: String = "nl-NL") async -> Bool {
        library.captureStarted(RecordingID(id), locale: locale)
        return await events.wait { $0.contains { $0.addedID == id } }
    }

    /// A file at `file`, to see it deleted.
    func touch(_ file: String) -> Bool {
        FileManager.default.createFile(atPath: file, contents: Data([1, 2, 3]))
    }
}

extension MemoEvent {
    /// The memo an `added` event brings.
    var addedID: String? { if case .added(let memo) = self { memo.id } else { nil } }
}
