import DBus
import Library
import Memos
import NotulaContract

/// `org.notula.Notula1.Library`: the memos as a whole — how many, a page of them newest first,
/// and search over titles and transcripts.
enum LibraryObject {
    /// Search waits for the gate: its snippets, and which memos match a word, tell what was said.
    static func interface(_ library: MemoLibrary, gate: AccessGate) -> Interface {
        Interface(
            NotulaBus.libraryInterface,
            methods: [
                NotulaBus.Library.method(
                    .list, inputs: [Argument("offset", "u"), Argument("limit", "u")], outputs: [Argument("memos", "ao")]
                ) {
                    message throws(BusError) in
                    let offset: UInt32 = try message.argument(0)
                    let limit: UInt32 = try message.argument(1)
                    let ids = try MemoObject.onLibrary(library) { library throws(MemoError) in
                        try library.list(offset: Int(offset), limit: Int(limit))
                    }
                    return .now([.array(element: "o", ids.map { .objectPath(MemoLibrary.path(of: $0)) })])
                },
                gate.guarding(
                    NotulaBus.Library.method(
                        .search, inputs: [Argument("query", "s"), Argument("limit", "u")], outputs: [Argument("hits", "a(os)")]
                    ) {
                        message throws(BusError) in
                        let query: String = try message.argument(0)
                        let limit: UInt32 = try message.argument(1)
                        return .later { () throws(BusError) in
                            let hits: [SearchHit]
                            do throws(MemoError) { hits = try await library.reader.search(query, limit: Int(limit)) } catch {
                                throw BusError(error)
                            }
                            return [
                                .array(
                                    element: "(os)",
                                    hits.map { .structure([.objectPath(MemoLibrary.path(of: $0.id)), .string($0.snippet)]) })
                            ]
                        }
                    }),
            ],
            properties: [
                NotulaBus.Library.property(.count, "u") { .uint32(UInt32(clamping: library.assumeIsolated { $0.count })) },
                NotulaBus.Library.property(.playing, "o") {
                    .objectPath(library.player.assumeIsolated { $0.playing.map(MemoLibrary.path(of:)) } ?? .root)
                },
                NotulaBus.Library.property(.playbackState, "s") {
                    .string(library.player.assumeIsolated { $0.playing == nil ? "stopped" : $0.isPaused ? "paused" : "playing" })
                },
            ])
    }
}
