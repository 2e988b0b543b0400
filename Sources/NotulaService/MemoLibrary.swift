import DBus
import FoundationEssentials
import Recording
import Speech

/// Where finished recordings become memos: one object each under `/org/notula/Notula1/Memos/`,
/// with the transcript made in the locale picked when they started. Kept in memory
/// for now; the library issue puts them in SQLite from here.
///
/// Shares the bus's executor, so that memo properties are read synchronously by the bus.
actor MemoLibrary: Processing {
    private struct Memo {
        let audio: CapturedAudio
        let locale: String
        var status = "transcribing"
        var transcript: Transcript?
        var failure: RecordingError?
    }

    private let bus: Bus
    nonisolated var unownedExecutor: UnownedSerialExecutor { bus.unownedExecutor }
    private let transcriber: Transcriber
    private let models: ModelStore
    private var memos: [RecordingID: Memo] = [:]

    init(bus: Bus, transcriber: Transcriber, models: ModelStore) {
        self.bus = bus
        self.transcriber = transcriber
        self.models = models
    }

    static func path(of recording: RecordingID) -> ObjectPath {
        NotulaBus.memosPath.appending(recording.rawValue) ?? NotulaBus.memosPath
    }

    func process(_ audio: CapturedAudio, recording: RecordingID) async throws(RecordingError) {
        let memo = Memo(audio: audio, locale: transcriber.locale(of: recording))
        memos[recording] = memo
        await bus.export(Self.path(of: recording), interfaces: [memoInterface(recording, memo)])
        Log.info("Memo \(recording): \(audio.file), \(audio.duration) s, transcribing in \(memo.locale)")
        do throws(RecordingError) {
            // A recording sent while its model downloads waits for it.
            await models.settled(memo.locale)
            guard !Task.isCancelled else { throw RecordingError.failed("The recording was discarded.") }
            let transcript = try await transcriber.transcript(of: recording, file: audio.file)
            update(recording) {
                $0.status = "done"
                $0.transcript = transcript
            }
        } catch {
            update(recording) {
                $0.status = "failed"
                $0.failure = error
            }
            throw error
        }
    }

    func discard(_ audio: CapturedAudio) async {
        if let recording = memos.first(where: { $0.value.audio == audio })?.key {
            memos[recording] = nil
            await bus.unexport(Self.path(of: recording))
        }
        do { try FileManager.default.removeItem(atPath: audio.file) } catch {
            Log.warning("Cannot delete \(audio.file): \(error)")
        }
    }

    /// The memo's text once transcribed, for the user's own eyes (the result notification, the viewer).
    func text(of recording: RecordingID) -> String? { memos[recording]?.transcript?.text }

    private func update(_ recording: RecordingID, _ change: (inout Memo) -> Void) {
        guard memos[recording] != nil else { return }
        change(&memos[recording]!)
        bus.assumeIsolated {
            $0.emitPropertiesChanged(path: Self.path(of: recording), interface: NotulaBus.memoInterface, names: ["Status"])
        }
    }

    /// The transcript travels only as this method's reply: never in a signal, which every
    /// listener on the session bus receives.
    private func transcript(of recording: RecordingID) throws(BusError) -> [Value] {
        guard let memo = memos[recording] else { throw BusError(.unknownObject, "No memo \(recording)") }
        if let failure = memo.failure { throw BusError(failure) }
        guard let transcript = memo.transcript else {
            throw BusError(.invalidState, "The memo is still being transcribed; its Status becomes done when the text is ready")
        }
        let words = transcript.words.map { word in
            Value.structure([.double(word.start), .double(word.end), .string(word.word), .double(word.confidence)])
        }
        return [.string(transcript.text), .array(element: "(ddsd)", words)]
    }

    private nonisolated func memoInterface(_ recording: RecordingID, _ memo: Memo) -> Interface {
        Interface(
            NotulaBus.memoInterface,
            methods: [
                Method("GetTranscript", outputs: [Argument("text", "s"), Argument("words", "a(ddsd)")]) { _ throws(BusError) in
                    let reply = self.assumeIsolated { library in Result { () throws(BusError) in try library.transcript(of: recording) } }
                    return .now(try reply.get())
                }
            ],
            properties: [
                Property("Created", "x", emitsChanged: .const) { .int64(Int64(recording.rawValue) ?? 0) },
                Property("Duration", "d", emitsChanged: .const) { .double(memo.audio.duration) },
                Property("Locale", "s", emitsChanged: .const) { .string(memo.locale) },
                Property("Status", "s") { .string(self.assumeIsolated { $0.memos[recording]?.status ?? "failed" }) },
                Property("AudioFile", "s", emitsChanged: .const) { .string(memo.audio.file) },
            ])
    }
}
