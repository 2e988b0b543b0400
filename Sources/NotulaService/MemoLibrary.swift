import Audio
import DBus
import FoundationEssentials
import Library
import Recording
import Speech

/// The memos: a row in the SQLite store from the moment a recording starts, through its
/// transcription, until the user deletes it; an object each under `/org/notula/Notula1/Memos/`,
/// made from its row when a call names it, so that a library of any size costs no memory.
///
/// Shares the bus's executor, so that memo properties are read synchronously by the bus. The
/// store's calls run there too: each is a short indexed query or a one-row transaction. Search,
/// which can take longer, runs on a reading connection of its own (`LibraryReader`).
actor MemoLibrary: Processing {
    let bus: Bus
    nonisolated var unownedExecutor: UnownedSerialExecutor { bus.unownedExecutor }
    let transcriber: Transcriber
    let models: ModelStore
    let store: MemoStore
    let reader: LibraryReader
    let recordingsFolder: String
    /// Where a memo's text is written when the user opens it (`MemoViewer`).
    let transcriptsFolder: String
    /// How many memos there are, counted at start and kept since: the Library's `Count`.
    private(set) var count = 0
    /// The methods every memo object shares, made when the library opens.
    private var memoMethods: [Method] = []
    /// Why this session's transcriptions failed, as the recorder reported them.
    private var failures: [String: RecordingError] = [:]
    let playback = PulsePlayback()
    /// The memo playing now.
    var playing: String?
    /// Counts playbacks, so that the end of one replaced by another is not taken for the end of both.
    var playbackGeneration = 0
    /// The memo of the recording in progress, from its capture's start until it is processed or
    /// discarded: the one memo Delete refuses.
    var current: String?
    /// The capture's news, handled one at a time in the order it came (`CaptureListeners`).
    nonisolated let captureNews: AsyncStream<CaptureNews>.Continuation
    private let captureNewsStream: AsyncStream<CaptureNews>

    init(
        bus: Bus, store databasePath: String, recordingsFolder: String, transcriptsFolder: String, transcriber: Transcriber,
        models: ModelStore
    ) throws(LibraryError) {
        self.bus = bus
        self.transcriber = transcriber
        self.models = models
        self.recordingsFolder = recordingsFolder
        self.transcriptsFolder = transcriptsFolder
        (captureNewsStream, captureNews) = AsyncStream.makeStream(of: CaptureNews.self)
        store = try MemoStore(path: databasePath)
        reader = LibraryReader(try MemoStore(readingFrom: databasePath))
    }

    static func path(of id: String) -> ObjectPath {
        NotulaBus.memosPath.appending(id) ?? NotulaBus.memosPath
    }

    /// Repairs what the last run left unfinished, then exports the library, the object manager
    /// and the memos' folder, whose objects are made from their rows when a call names one.
    func open() throws(LibraryError) {
        let recovered = try recoverUnfinished()
        try reportStrays()
        count = try store.count()
        memoMethods = MemoObject.methods(self)
        bus.assumeIsolated { bus in
            bus.exportObjectManager(at: NotulaBus.rootPath)
            bus.exportSubtree(NotulaBus.memosPath, ObjectSubtree(interfaces: memoInterfaces, forEach: forEachMemoObject))
            bus.export(NotulaBus.libraryPath, interfaces: [LibraryObject.interface(self)])
        }
        for memo in recovered { Task { await transcribeRecovered(memo) } }
        Task { for await news in captureNewsStream { take(news) } }
    }

    // MARK: The flow

    /// The capture of `recording` began: its row exists from now on, so a crash cannot lose it.
    func recordingStarted(_ recording: RecordingID, locale: String) {
        guard summary(recording.rawValue) == nil else { return }
        let memo = Memo(
            id: recording.rawValue, created: Int64(recording.rawValue) ?? 0, locale: locale,
            audioFile: recordingsFolder + "/\(recording.rawValue).wav")
        do throws(LibraryError) { try store.insert(memo) } catch {
            Log.error("Cannot add memo \(recording) to the library: \(error)")
            return
        }
        count += 1
        let object = memoObject(memo)
        bus.assumeIsolated { $0.announceAdded(at: Self.path(of: memo.id), [object]) }
        countChanged()
    }

    /// The capture of `recording` ended without a file to keep.
    func recordingDropped(_ recording: RecordingID) {
        if current == recording.rawValue { current = nil }
        guard summary(recording.rawValue) != nil else { return }
        forget(recording.rawValue)
    }

    func process(_ audio: CapturedAudio, recording: RecordingID) async throws(RecordingError) {
        let id = recording.rawValue
        recordingStarted(recording, locale: transcriber.locale(of: recording))
        defer { if current == id { current = nil } }
        // A library too full for this is told by the save of the outcome, which needs the same room.
        try? advance(id) {
            $0.status = .transcribing
            $0.duration = audio.duration
            $0.audioFile = audio.file
        }
        let locale = summary(id)?.locale ?? transcriber.locale(of: recording)
        Log.info("Memo \(recording): \(audio.file), \(audio.duration) s, transcribing in \(locale)")
        do throws(RecordingError) {
            // A recording sent while its model downloads waits for it.
            await models.settled(locale)
            guard !Task.isCancelled else { throw RecordingError.failed("The recording was discarded.") }
            let transcript = try await transcriber.transcript(of: recording, file: audio.file)
            try advance(id) {
                $0.status = .done
                $0.transcript = transcript.text
                $0.words = transcript.words
            }
        } catch {
            failures[id] = error
            try? advance(id) {
                $0.status = .failed
                $0.failure = error.message
            }
            throw error
        }
    }

    func discard(_ audio: CapturedAudio) async {
        if let id = try? store.id(ofAudioFile: audio.file) { forget(id) }
        do { try FileManager.default.removeItem(atPath: audio.file) } catch {
            Log.warning("Cannot delete \(audio.file): \(error)")
        }
    }

    // MARK: What the bus objects ask

    /// The memo's text once transcribed, for the user's own eyes (the result notification, the viewer).
    func text(of recording: RecordingID) -> String? {
        guard let memo = try? store.memo(recording.rawValue), memo.status == .done || memo.status == .recovered else { return nil }
        return memo.transcript
    }

    /// The memo's row without its transcript: what its properties show; nil when there is none.
    func summary(_ id: String) -> Memo? {
        do throws(LibraryError) { return try store.summary(id) } catch {
            Log.error("Cannot read memo \(id) from the library: \(error)")
            return nil
        }
    }

    /// The whole memo, transcript included.
    func memo(_ id: String) throws(BusError) -> Memo {
        do throws(LibraryError) {
            guard let memo = try store.memo(id) else { throw LibraryError.noSuchMemo(id) }
            return memo
        } catch { throw BusError(error) }
    }

    /// Why the memo has no transcript, when it has none.
    func failure(of memo: Memo) -> BusError? {
        if let failure = failures[memo.id] { return BusError(failure) }
        switch memo.status {
        case .failed: return BusError(.notulaFailed, memo.failure ?? "The transcription failed")
        case .recording: return BusError(.invalidState, "The memo is still being recorded")
        case .transcribing:
            return BusError(.invalidState, "The memo is still being transcribed; its Status becomes done when the text is ready")
        case .done, .recovered: return nil
        }
    }

    func rename(_ id: String, to title: String) throws(BusError) {
        guard !title.isEmpty else { throw BusError.invalidArgs("A title cannot be empty") }
        do throws(LibraryError) { try change(id, emitting: ["Title"]) { $0.title = title } } catch { throw BusError(error) }
    }

    /// Deletes everything of the memo: its audio, the text written when it was opened, its row (and
    /// with it its search entry). The audio first, so that a file that cannot be deleted leaves its
    /// row (and the user's way to it) in place.
    func delete(_ id: String) throws(BusError) {
        guard let memo = summary(id) else { throw BusError(LibraryError.noSuchMemo(id)) }
        guard id != current else {
            throw BusError(.invalidState, "Memo \(id) is the recording in progress: Discard throws it away")
        }
        for file in [memo.audioFile, transcriptsFolder + "/\(id).txt"] where FileManager.default.fileExists(atPath: file) {
            do { try FileManager.default.removeItem(atPath: file) } catch {
                throw BusError(.notulaFailed, "Cannot delete \(file): \(error)")
            }
        }
        stopPlayback(id)
        forget(id)
        Log.info("Deleted memo \(id), its audio and text")
    }

    func list(offset: Int, limit: Int) throws(BusError) -> [String] {
        do throws(LibraryError) { return try store.list(offset: offset, limit: limit) } catch { throw BusError(error) }
    }

    // MARK: Rows and objects together

    /// The memo object named `id`, made from its row; nil when there is no such memo.
    private nonisolated func memoInterfaces(_ id: String) -> [Interface]? {
        assumeIsolated { library in library.summary(id).map { [library.memoObject($0)] } }
    }

    /// Hands every memo object to `body`, made from its row, a page of rows at a time: for the
    /// object manager's full listing, written into its reply as it goes.
    private nonisolated func forEachMemoObject(_ body: (String, [Interface]) -> Bool) {
        var last: Memo?
        while true {
            let page = assumeIsolated { library in
                do throws(LibraryError) {
                    return try library.store.summaries(after: last, limit: 500).map { ($0, [library.memoObject($0)]) }
                } catch {
                    Log.error("Cannot list the memos: \(error)")
                    return []
                }
            }
            for (memo, interfaces) in page { guard body(memo.id, interfaces) else { return } }
            guard let next = page.last?.0 else { return }
            last = next
        }
    }

    private func memoObject(_ row: Memo) -> Interface { MemoObject.interface(row, methods: memoMethods, library: self) }

    private func forget(_ id: String) {
        do throws(LibraryError) { try store.delete(id) } catch {
            return Log.error("Cannot remove memo \(id) from the library: \(error)")
        }
        count -= 1
        failures[id] = nil
        bus.assumeIsolated { $0.announceRemoved(at: Self.path(of: id), [NotulaBus.memoInterface]) }
        countChanged()
    }

    /// Saves a change to a memo and announces its Status (and `emitting`) as changed.
    private func change(_ id: String, emitting names: [MemberName] = ["Status", "Duration"], _ body: (inout Memo) -> Void)
        throws(LibraryError)
    {
        try store.update(id, body)
        bus.assumeIsolated { $0.emitPropertiesChanged(path: Self.path(of: id), interface: NotulaBus.memoInterface, names: names) }
    }

    /// `change` for the flow, where a memo deleted meanwhile is no failure of the recording, and a library that
    /// cannot be written is: the row keeps its last state, which the next start repairs.
    func advance(_ id: String, _ body: (inout Memo) -> Void) throws(RecordingError) {
        do throws(LibraryError) { try change(id, emitting: ["Status", "Duration"], body) } catch .noSuchMemo {
            return
        } catch {
            Log.warning("Memo \(id) not updated: \(error)")
            let kept = "Its audio is kept, and it is transcribed again at the next start."
            throw error.isDiskFull
                ? .noSpace("The disk is full: memo \(id) could not be saved to the library. Free some space. \(kept)")
                : .failed("Memo \(id) could not be saved to the library (\(error)). \(kept)")
        }
    }

    private func countChanged() {
        bus.assumeIsolated {
            $0.emitPropertiesChanged(path: NotulaBus.libraryPath, interface: NotulaBus.libraryInterface, names: ["Count"])
        }
    }
}

extension BusError {
    init(_ error: LibraryError) {
        switch error {
        case .badSearchQuery(let message): self.init(.invalidArgs, "Not a search query: \(message)")
        case .noSuchMemo(let id): self.init(.unknownObject, "No memo \(id)")
        case .storage: self.init(.notulaFailed, "The memo library failed: \(error)")
        }
    }
}
