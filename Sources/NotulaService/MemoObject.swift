import DBus
import Library
import NotulaContract

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
                Property("Title", "s", getter: { .string(row.title) }) { value throws(BusError) in
                    guard case .string(let title) = value else { throw BusError.invalidArgs("Title is a string") }
                    try onLibrary(library) { library throws(BusError) in try library.rename(row.id, to: title) }
                },
                Property("Created", "x", emitsChanged: .const) { .int64(row.created) },
                Property("Duration", "d") { .double(row.duration) },
                Property("Locale", "s", emitsChanged: .const) { .string(row.locale) },
                Property("Status", "s") { .string(row.status.rawValue) },
                Property("AudioFile", "s", emitsChanged: .const) { .string(row.audioFile) },
            ])
    }

    /// The methods of every memo object, made once: each finds its memo from the path it was
    /// called on, so that a listing of many memos does not make them again for each.
    static func methods(_ library: MemoLibrary) -> [Method] {
        /// The memo that `message` was sent to, with its text, or why it has none.
        @Sendable func transcribedMemo(_ message: Message) throws(BusError) -> Memo {
            try onLibrary(library) { library throws(BusError) in
                let memo = try library.memo(try id(message))
                if let failure = library.failure(of: memo) { throw failure }
                return memo
            }
        }
        return [
            Method("GetTranscript", outputs: [Argument("text", "s"), Argument("words", "a(ddsd)")]) { message throws(BusError) in
                let memo = try transcribedMemo(message)
                let words = memo.words.map { word in
                    Value.structure([.double(word.start), .double(word.end), .string(word.word), .double(word.confidence)])
                }
                return .now([.string(memo.transcript), .array(element: "(ddsd)", words)])
            },
            Method("Export", inputs: [Argument("format", "s")], outputs: [Argument("content", "s")]) { message throws(BusError) in
                let name: String = try message.argument(0)
                guard let format = ExportFormat(rawValue: name) else {
                    throw BusError.invalidArgs(
                        "Unknown export format \(name); one of \(ExportFormat.allCases.map(\.rawValue).joined(separator: ", "))")
                }
                return .now([.string(format.render(try transcribedMemo(message)))])
            },
            Method("Play") { message throws(BusError) in
                let id = try id(message)
                try onLibrary(library) { library throws(BusError) in try library.play(id) }
                return .now([])
            },
            Method("StopPlayback") { message throws(BusError) in
                let id = try id(message)
                library.assumeIsolated { $0.stopPlayback(id) }
                return .now([])
            },
            Method("Delete") { message throws(BusError) in
                let id = try id(message)
                try onLibrary(library) { library throws(BusError) in try library.delete(id) }
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

    /// Runs `body` on the library, on the bus thread the handlers run on.
    private static func onLibrary<T: Sendable>(
        _ library: MemoLibrary, _ body: @Sendable (isolated MemoLibrary) throws(BusError) -> T
    ) throws(BusError) -> T {
        try library.assumeIsolated { library in Result { () throws(BusError) in try body(library) } }.get()
    }
}
