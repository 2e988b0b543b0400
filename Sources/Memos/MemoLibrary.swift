import FoundationEssentials
import Library
import Recording

/// The memos: a row in the SQLite store from the moment a recording starts, through its
/// transcription, until the user deletes it. Each change is told to the `MemoListener` given at `open`.
///
/// Runs on the executor it is given: the service hands it the bus's, so that the bus reads memo
/// properties synchronously. The store's calls run there too: each is a short indexed query or a
/// one-row transaction. Search, which can take longer, runs on a reading connection of its own (`reader`).
public actor MemoLibrary: Processing {
    private let executor: UnownedSerialExecutor
    public nonisolated var unownedExecutor: UnownedSerialExecutor { executor }
    let transcriber: any Transcribing
    let models: any ModelWaiting
    let store: MemoStore
    public let reader: LibraryReader
    let recordingsFolder: String
    /// Where a memo's text is written when the user opens it (`MemoViewer`).
    let transcriptsFolder: String
    /// How many memos there are, counted at start and kept since.
    public private(set) var count = 0
    private var listener: (any MemoListener)?
    /// Why this session's transcriptions failed, as the recorder reported them.
    private var failures: [String: RecordingError] = [:]
    /// The memos whose text the accurate pass is still completing.
    var revisions: [String: MemoRevision] = [:]
    /// Plays the memos' audio, one at a time, on this executor.
    public nonisolated let player: MemoPlayer
    /// Makes a recording cut short by a crash whole again (`MemoRecovery`).
    let repair: RecordingRepairing
    /// The memo of the recording in progress, from its capture's start until it is processed or
    /// discarded: the one memo Delete refuses.
    public internal(set) var current: String?
    /// The capture's news, handled one at a time in the order it came (`CaptureNews`).
    nonisolated let captureNews: AsyncStream<CaptureNews>.Continuation
    private let captureNewsStream: AsyncStream<CaptureNews>
    /// Decodes memos again, one at a time (`MemoRetranscription`).
    let retranscriber: MemoRetranscriber

    /// - Parameters:
    ///   - executor: the executor the library runs on, which must outlive it.
    ///   - playback: plays the memos' audio; `repair` mends a recording cut short: the sound side, handed in.
    public init(
        executor: UnownedSerialExecutor, store databasePath: String, recordingsFolder: String, transcriptsFolder: String,
        transcriber: any Transcribing, models: any ModelWaiting, playback: any SoundPlaying, repair: @escaping RecordingRepairing
    ) throws(MemoError) {
        self.executor = executor
        player = MemoPlayer(executor: executor, sound: playback)
        self.repair = repair
        self.transcriber = transcriber
        self.models = models
        self.recordingsFolder = recordingsFolder
        self.transcriptsFolder = transcriptsFolder
        (captureNewsStream, captureNews) = AsyncStream.makeStream(of: CaptureNews.self)
        retranscriber = MemoRetranscriber(transcriber: transcriber, models: models)
        do throws(LibraryError) {
            store = try MemoStore(path: databasePath)
            reader = LibraryReader(try MemoStore(readingFrom: databasePath))
        } catch { throw MemoError(error) }
    }

    /// Repairs what the last run left unfinished and tells `listener` of every change from now on. The
    /// recovered memos are transcribed, and the capture's news taken, only after the job that opens the
    /// library: the caller makes the memos visible in that job first.
    public func open(reporting listener: any MemoListener) throws(MemoError) {
        self.listener = listener
        player.assumeIsolated { $0.report(to: listener) }
        let recovered: [Memo]
        do throws(LibraryError) {
            recovered = try recoverUnfinished()
            try reportStrays()
            count = try store.count()
        } catch { throw MemoError(error) }
        for memo in recovered { Task { await transcribeRecovered(memo) } }
        Task { for await news in captureNewsStream { take(news) } }
        Task { for await job in retranscriber.jobs { await retranscribe(job) } }
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
        tell(.added(memo))
        tell(.countChanged(count))
    }

    /// The capture of `recording` ended without a file to keep.
    func recordingDropped(_ recording: RecordingID) {
        if current == recording.rawValue { current = nil }
        guard summary(recording.rawValue) != nil else { return }
        forget(recording.rawValue)
    }

    public func process(_ audio: CapturedAudio, recording: RecordingID) async throws(RecordingError) {
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
            let transcript = try await transcriber.text(of: recording, file: audio.file, in: nil)
            if let revision = transcript.revision { awaitRevision(revision, of: id) }
            try advance(id, .transcribed) {
                $0.status = .done
                $0.take(transcript)
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

    public func discard(_ audio: CapturedAudio) async {
        if let id = try? store.id(ofAudioFile: audio.file) { forget(id) }
        do { try FileManager.default.removeItem(atPath: audio.file) } catch {
            Log.warning("Cannot delete \(audio.file): \(error)")
        }
    }

    // MARK: What the user asks

    /// The memo's written text once transcribed, for the user's own eyes (the result notification, the viewer)
    /// and where the user types.
    public func text(of recording: RecordingID) -> String? {
        guard let memo = try? store.memo(recording.rawValue), memo.status == .done || memo.status == .recovered else { return nil }
        return memo.written
    }

    /// The memo's row without its transcript: what its properties show; nil when there is none.
    public func summary(_ id: String) -> Memo? {
        do throws(LibraryError) { return try store.summary(id) } catch {
            Log.error("Cannot read memo \(id) from the library: \(error)")
            return nil
        }
    }

    /// Rows without their transcripts, newest first, from the one after `last`: the memos page by page.
    public func summaries(after last: Memo?, limit: Int) throws(MemoError) -> [Memo] {
        do throws(LibraryError) { return try store.summaries(after: last, limit: limit) } catch { throw MemoError(error) }
    }

    /// The whole memo, transcript included.
    /// - Throws: why it has no transcript, when it has none.
    public func transcribedMemo(_ id: String) throws(MemoError) -> Memo {
        let memo: Memo
        do throws(LibraryError) {
            guard let row = try store.memo(id) else { throw LibraryError.noSuchMemo(id) }
            memo = row
        } catch { throw MemoError(error) }
        if let failure = failure(of: memo) { throw failure }
        return memo
    }

    public func rename(_ id: String, to title: String) throws(MemoError) {
        guard !title.isEmpty else { throw .emptyTitle }
        do throws(LibraryError) { try change(id, .title) { $0.title = title } } catch { throw MemoError(error) }
    }

    /// Deletes everything of the memo: its audio, the text written when it was opened, its row (and
    /// with it its search entry). The audio first, so that a file that cannot be deleted leaves its
    /// row (and the user's way to it) in place.
    public func delete(_ id: String) throws(MemoError) {
        guard let memo = summary(id) else { throw .noSuchMemo(id) }
        guard id != current else { throw .recordingInProgress(id) }
        for file in [memo.audioFile, transcriptsFolder + "/\(id).txt"] where FileManager.default.fileExists(atPath: file) {
            do { try FileManager.default.removeItem(atPath: file) } catch {
                throw .cannotDelete(file: file, reason: "\(error)")
            }
        }
        player.assumeIsolated { $0.stop(id) }
        forget(id)
        Log.info("Deleted memo \(id), its audio and text")
    }

    /// The ids of a page of memos, newest first.
    public func list(offset: Int, limit: Int) throws(MemoError) -> [String] {
        do throws(LibraryError) { return try store.list(offset: offset, limit: limit) } catch { throw MemoError(error) }
    }

    // MARK: Rows and their news together

    /// Why the memo has no transcript, when it has none.
    private func failure(of memo: Memo) -> MemoError? {
        if let failure = failures[memo.id] { return .transcriptionFailed(failure) }
        switch memo.status {
        // A memo that failed to be transcribed again keeps the text it had.
        case .failed:
            return memo.model.isEmpty && memo.transcript.isEmpty
                ? .transcriptionFailed(.failed(memo.failure ?? "The transcription failed")) : nil
        case .recording: return .stillRecording
        case .transcribing: return .stillTranscribing
        case .done, .recovered: return nil
        }
    }

    private func forget(_ id: String) {
        do throws(LibraryError) { try store.delete(id) } catch {
            return Log.error("Cannot remove memo \(id) from the library: \(error)")
        }
        count -= 1
        failures[id] = nil
        revisions.removeValue(forKey: id)?.cancel()
        tell(.removed(id))
        tell(.countChanged(count))
    }

    /// Saves a change to a memo and tells it.
    func change(_ id: String, _ what: MemoChange, _ body: (inout Memo) -> Void) throws(LibraryError) {
        try store.update(id, body)
        tell(.changed(id, what))
    }

    /// `change` for the flow, where a memo deleted meanwhile is no failure of the recording, and a library that
    /// cannot be written is: the row keeps its last state, which the next start repairs.
    func advance(_ id: String, _ what: MemoChange = .progress, _ body: (inout Memo) -> Void) throws(RecordingError) {
        do throws(LibraryError) { try change(id, what, body) } catch .noSuchMemo {
            return
        } catch {
            Log.warning("Memo \(id) not updated: \(error)")
            let kept = "Its audio is kept, and it is transcribed again at the next start."
            throw error.isDiskFull
                ? .noSpace("The disk is full: memo \(id) could not be saved to the library. Free some space. \(kept)")
                : .failed("Memo \(id) could not be saved to the library (\(error)). \(kept)")
        }
    }

    func tell(_ event: MemoEvent) { listener?.libraryChanged(event) }
}
