import DBus
import Library

/// `org.notula.Notula1.Memo`: one memo on the bus. Its properties are what every client may
/// see (InterfacesAdded carries them all): the transcript is not one of them, and travels only
/// as the reply of `GetTranscript` or `Export`.
enum MemoObject {
    /// The object of `memo`, whose properties show `row`: made afresh from the memo's row for
    /// each call that names it, so the row read is the row now.
    static func interface(_ row: Memo, _ library: MemoLibrary) -> Interface {
        let id = row.id
        /// Runs `body` on the library, on the bus thread the handlers run on.
        @Sendable func onLibrary<T: Sendable>(_ body: @Sendable (isolated MemoLibrary) throws(BusError) -> T) throws(BusError) -> T {
            try library.assumeIsolated { library in Result { () throws(BusError) in try body(library) } }.get()
        }
        return Interface(
            NotulaBus.memoInterface,
            methods: [
                Method("GetTranscript", outputs: [Argument("text", "s"), Argument("words", "a(ddsd)")]) { _ throws(BusError) in
                    let memo = try onLibrary { library throws(BusError) in
                        let memo = try library.memo(id)
                        if let failure = library.failure(of: memo) { throw failure }
                        return memo
                    }
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
                    let memo = try onLibrary { library throws(BusError) in
                        let memo = try library.memo(id)
                        if let failure = library.failure(of: memo) { throw failure }
                        return memo
                    }
                    return .now([.string(format.render(memo))])
                },
                Method("Play") { _ throws(BusError) in
                    try onLibrary { library throws(BusError) in try library.play(id) }
                    return .now([])
                },
                Method("StopPlayback") { _ throws(BusError) in
                    library.assumeIsolated { $0.stopPlayback(id) }
                    return .now([])
                },
                Method("Delete") { _ throws(BusError) in
                    try onLibrary { library throws(BusError) in try library.delete(id) }
                    return .now([])
                },
            ],
            properties: [
                Property("Title", "s", getter: { .string(row.title) }) { value throws(BusError) in
                    guard case .string(let title) = value else { throw BusError.invalidArgs("Title is a string") }
                    try onLibrary { library throws(BusError) in try library.rename(id, to: title) }
                },
                Property("Created", "x", emitsChanged: .const) { .int64(row.created) },
                Property("Duration", "d") { .double(row.duration) },
                Property("Locale", "s", emitsChanged: .const) { .string(row.locale) },
                Property("Status", "s") { .string(row.status.rawValue) },
                Property("AudioFile", "s", emitsChanged: .const) { .string(row.audioFile) },
            ])
    }
}
