import DBus
import Dictating
import Library
import Memos
import Models
import NotulaContract
import Speech

/// `org.notula.Notula1.Memo`: one memo on the bus. Its properties are what every client may
/// see (InterfacesAdded carries them all): the transcript is not one of them, and travels only
/// as the reply of `GetTranscript` or `Export`.
enum MemoObject {
    /// The object of the memo whose row is `row`: made afresh for each call that names it, so
    /// the row read is the row now. `methods` are the ones every memo shares (`methods(_:)`).
    static func interface(_ row: Memo, methods: [Method], library: MemoLibrary) -> Interface {
        Interface(
            NotulaBus.memoInterface, methods: methods,
            properties: [
                // Invalidated, never sent: a title holds the first words said, or the user's, and signals are broadcast.
                NotulaBus.Memo.property(.title, "s", emitsChanged: .invalidates, getter: { .string(row.title) }) { value throws(BusError) in
                    guard case .string(let title) = value else { throw BusError.invalidArgs("Title is a string") }
                    try onLibrary(library) { library throws(MemoError) in try library.rename(row.id, to: title) }
                },
                NotulaBus.Memo.property(.created, "x", emitsChanged: .const) { .int64(row.created) },
                NotulaBus.Memo.property(.duration, "d") { .double(row.duration) },
                NotulaBus.Memo.property(.locale, "s") { .string(row.locale) },
                NotulaBus.Memo.property(.model, "s") { .string(row.model) },
                NotulaBus.Memo.property(.failure, "s") { .string(row.status == .failed ? row.failure ?? "" : "") },
                NotulaBus.Memo.property(.status, "s") { .string(row.status.rawValue) },
                NotulaBus.Memo.property(.pendingUtterances, "au") {
                    .array(element: "u", library.assumeIsolated { $0.pendingUtterances(of: row.id) }.map { .uint32(UInt32(clamping: $0)) })
                },
                NotulaBus.Memo.property(.utteranceModels, "a(dds)") {
                    .array(
                        element: "(dds)",
                        row.utteranceModels.map { .structure([.double($0.start), .double($0.end), .string($0.model)]) })
                },
                NotulaBus.Memo.property(.audioFile, "s", emitsChanged: .const) { .string(row.audioFile) },
                NotulaBus.Memo.property(.position, "d", emitsChanged: .false) {
                    .double(library.player.assumeIsolated { $0.position(row.id) })
                },
            ])
    }

    /// The methods of every memo object, made once: each finds its memo from the path it was
    /// called on, so that a listing of many memos does not make them again for each.
    /// GetTranscript and Export hand out what was said: they wait for the gate.
    static func methods(_ library: MemoLibrary, writing: TextWriting, models: ModelStore, gate: AccessGate) -> [Method] {
        /// The memo that `message` was sent to, with its text, or why it has none.
        @Sendable func transcribedMemo(_ message: Message) throws(BusError) -> Memo {
            let id = try id(message)
            return try onLibrary(library) { library throws(MemoError) in try library.transcribedMemo(id) }
        }
        return [
            gate.guarding(
                NotulaBus.Memo.method(.getTranscript, outputs: [Argument("text", "s"), Argument("words", "a(ddsd)")]) {
                    message throws(BusError) in
                    let memo = try transcribedMemo(message)
                    let words = memo.words.map { word in
                        Value.structure([.double(word.start), .double(word.end), .string(word.word), .double(word.confidence)])
                    }
                    return .now([.string(memo.transcript), .array(element: "(ddsd)", words)])
                }),
            gate.guarding(
                NotulaBus.Memo.method(.export, inputs: [Argument("format", "s")], outputs: [Argument("content", "s")]) {
                    message throws(BusError) in
                    let name: String = try message.argument(0)
                    guard let format = ExportFormat(rawValue: name) else {
                        throw BusError.invalidArgs(
                            "Unknown export format \(name); one of \(ExportFormat.allCases.map(\.rawValue).joined(separator: ", "))")
                    }
                    let memo = try transcribedMemo(message)
                    let text = writing.writing(in: memo.locale)
                    return .now([.string(format.render(memo, writing: { text.writeEach($0) }))])
                }),
            NotulaBus.Memo.method(.play) { message throws(BusError) in
                let id = try id(message)
                try onLibrary(library) { library throws(MemoError) in try library.play(id) }
                return .now([])
            },
            NotulaBus.Memo.method(.stopPlayback) { message throws(BusError) in
                let id = try id(message)
                library.player.assumeIsolated { $0.stop(id) }
                return .now([])
            },
            // Answers once the sound has stopped, so that a Position read next is where it stays.
            NotulaBus.Memo.method(.pause) { message throws(BusError) in
                let id = try id(message)
                return .later { () throws(BusError) in
                    do throws(MemoError) { try await library.player.pause(id) } catch { throw BusError(error) }
                    return []
                }
            },
            NotulaBus.Memo.method(.resume) { message throws(BusError) in
                let id = try id(message)
                try onPlayer(library.player) { player throws(MemoError) in try player.resume(id) }
                return .now([])
            },
            NotulaBus.Memo.method(.seek, inputs: [Argument("seconds", "d")]) { message throws(BusError) in
                let id = try id(message)
                let seconds: Double = try message.argument(0)
                guard seconds.isFinite, seconds >= 0 else {
                    throw BusError.invalidArgs("Seek takes the seconds from the memo's start: a number 0 or more, not \(seconds)")
                }
                try onPlayer(library.player) { player throws(MemoError) in try player.seek(id, to: seconds) }
                return .now([])
            },
            NotulaBus.Memo.method(.transcribe, inputs: [Argument("locale", "s"), Argument("model", "s")]) { message throws(BusError) in
                let id = try id(message)
                let (tag, model): (String, String) = (try message.argument(0), try message.argument(1))
                let memo = try onLibrary(library) { library throws(MemoError) in try library.transcribable(id) }
                // The model's installation, when it is missing, begins before the memo is queued to wait for it.
                let choice = try models.assumeIsolated { models in
                    Result { () throws(ModelError) in
                        try models.modelForTranscribing(tag.isEmpty ? memo.locale : tag, model: model.isEmpty ? nil : model)
                    }
                }.mapError(BusError.init).get()
                try onLibrary(library) { library throws(MemoError) in
                    try library.transcribeAgain(id, in: choice.locale, model: choice.model)
                }
                return .now([])
            },
            NotulaBus.Memo.method(.delete) { message throws(BusError) in
                let id = try id(message)
                try onLibrary(library) { library throws(MemoError) in try library.delete(id) }
                return .now([])
            },
        ]
    }

    /// The id of the memo a call was sent to: the last element of its path.
    private static func id(_ message: Message) throws(BusError) -> String {
        guard let path = message.path?.rawValue, let slash = path.lastIndex(of: "/") else {
            throw BusError(.unknownObject, "No memo at this path")
        }
        return String(path[path.index(after: slash)...])
    }

    /// Runs `body` on the library, on the bus thread the handlers run on, its refusal the bus's error.
    static func onLibrary<T: Sendable>(
        _ library: MemoLibrary, _ body: @Sendable (isolated MemoLibrary) throws(MemoError) -> T
    ) throws(BusError) -> T {
        let outcome = library.assumeIsolated { library in Result { () throws(MemoError) in try body(library) } }
        do throws(MemoError) { return try outcome.get() } catch { throw BusError(error) }
    }

    /// `onLibrary` for the library's player, which shares its executor.
    static func onPlayer(_ player: MemoPlayer, _ body: @Sendable (isolated MemoPlayer) throws(MemoError) -> Void) throws(BusError) {
        let outcome = player.assumeIsolated { player in Result { () throws(MemoError) in try body(player) } }
        do throws(MemoError) { try outcome.get() } catch { throw BusError(error) }
    }
}

extension MemoLibrary {
    /// The object path of memo `id`.
    static func path(of id: String) -> ObjectPath {
        NotulaBus.memosPath.appending(id) ?? NotulaBus.memosPath
    }
}

extension BusError {
    /// The memo service's refusals by their names in the contract.
    init(_ error: MemoError) {
        switch error {
        case .noSuchMemo: self.init(.unknownObject, error.message)
        case .badSearchQuery, .emptyTitle: self.init(.invalidArgs, error.message)
        case .recordingInProgress, .stillRecording, .stillTranscribing, .notPlaying: self.init(.invalidState, error.message)
        case .transcriptionFailed(let failure): self.init(failure)
        case .audioGone, .cannotDelete, .libraryFailed, .notHeld: self.init(.notulaFailed, error.message)
        }
    }
}
