import DBus
import FoundationEssentials
import NotulaContract

#if canImport(Glibc)
    import Glibc
#endif

/// The memo library as the command line sees it: `notula memos …`.
struct MemosClient {
    private typealias Memo = NotulaBus.Memo
    private static let properties: InterfaceName = "org.freedesktop.DBus.Properties"
    private static let objectManager: InterfaceName = "org.freedesktop.DBus.ObjectManager"

    let bus: Bus

    /// One memo's properties, as printed and as `--json` writes them.
    struct Summary: Encodable {
        var id: String
        var path: String
        var title: String
        var created: Int64
        var duration: Double
        var status: String
        var locale: String
        var audioFile: String
        var snippet: String?
    }

    /// Every memo, newest first, from one call to the object manager.
    func all() async throws(BusError) -> [Summary] {
        let reply = try await call(NotulaBus.rootPath, Self.objectManager, "GetManagedObjects")
        let objects = try reply.argument(0, as: [ObjectPath: [String: [String: Variant]]].self)
        var summaries: [Summary] = []
        for (path, interfaces) in objects {
            if let memo = interfaces[Memo.name.rawValue] { summaries.append(try Self.summary(path, memo)) }
        }
        return summaries.sorted { ($0.created, $0.id) > ($1.created, $1.id) }
    }

    /// Every memo's id, newest first, without their properties.
    func ids() async throws(BusError) -> [String] { try await paths().map(Self.id(of:)) }

    /// The memos matching `query`, best first, with their snippets.
    func search(_ query: String) async throws(BusError) -> [Summary] {
        let reply = try await library(.search, [.string(query), .uint32(50)])
        var summaries: [Summary] = []
        for hit in try reply.argument(0, as: [DBusStruct<ObjectPath, String>].self) {
            var summary = try await summary(hit.fields.0)
            summary.snippet = hit.fields.1
            summaries.append(summary)
        }
        return summaries
    }

    /// The memo whose id is `abbreviation` or ends with it, when only one does.
    /// - Throws: InvalidArgs when none or several match.
    func resolve(_ abbreviation: String) async throws(BusError) -> ObjectPath {
        let matches = try await paths().filter { Self.id(of: $0).hasSuffix(abbreviation) && !abbreviation.isEmpty }
        guard matches.count == 1 else {
            throw BusError.invalidArgs(
                matches.isEmpty ? "No memo \(abbreviation)" : "\(abbreviation) names \(matches.count) memos; give more of its digits")
        }
        return matches[0]
    }

    func summary(_ path: ObjectPath) async throws(BusError) -> Summary {
        let reply = try await call(path, Self.properties, "GetAll", [.string(Memo.name.rawValue)])
        return try Self.summary(path, try reply.argument(0, as: [String: Variant].self))
    }

    private static func summary(_ path: ObjectPath, _ values: [String: Variant]) throws(BusError) -> Summary {
        func value<T: DBusRepresentable>(_ property: Memo.Property, _ empty: T) throws(BusError) -> T {
            try values[property.rawValue]?.get(T.self) ?? empty
        }
        return Summary(
            id: Self.id(of: path), path: path.rawValue, title: try value(.title, ""), created: try value(.created, 0),
            duration: try value(.duration, 0), status: try value(.status, ""), locale: try value(.locale, ""),
            audioFile: try value(.audioFile, ""))
    }

    /// The transcript, or why there is none.
    func transcript(_ path: ObjectPath) async -> String {
        do throws(BusError) {
            return try await call(path, .getTranscript).argument(0, as: String.self)
        } catch { return "(no transcript: \(error.message))" }
    }

    func export(_ path: ObjectPath, format: String) async throws(BusError) -> String {
        try await call(path, .export, [.string(format)]).argument(0, as: String.self)
    }

    func rename(_ path: ObjectPath, to title: String) async throws(BusError) {
        _ = try await call(
            path, Self.properties, "Set",
            [.string(Memo.name.rawValue), .string(Memo.Property.title.rawValue), .variant(.string(title))])
    }

    /// Plays the memo and returns when its playback ends: at its end, when another memo plays,
    /// or at Ctrl-C, which stops it. At a terminal, keys steer it meanwhile (`PlaybackKeys`).
    func play(_ path: ObjectPath) async throws(BusError) {
        let changes = try await bus.signals(
            matching: MatchRule(
                sender: NotulaBus.name, path: NotulaBus.libraryPath, interface: Self.properties, member: "PropertiesChanged"))
        // Ready for Ctrl-C before the playback starts: a StopPlayback sent after Play reaches the
        // service after it, on the same connection.
        let interrupt = onInterrupt { [bus] in
            Task {
                _ = try? await bus.call(
                    MethodCall(
                        destination: NotulaBus.name, path: path, interface: Memo.name, member: Memo.Method.stopPlayback.rawValue))
            }
        }
        defer { interrupt.cancel() }
        let length = try await summary(path).duration
        _ = try await call(path, .play)
        let keys = PlaybackKeys.start(on: bus, memo: path, length: length)
        defer { keys?.end() }
        for await message in changes {
            let changed = try? message.argument(1, as: [String: Variant].self)
            if let playing = try? changed?[NotulaBus.Library.Property.playing.rawValue]?.get(ObjectPath.self), playing != path { return }
        }
        throw BusError(.disconnected, "Lost the connection to the session bus")
    }

    /// Transcribes the memo again, and returns once its new text is in, with what says so.
    /// - Throws: the service's refusal; `Failed` with the reason when the new decoding failed (the old text stays).
    func transcribe(_ path: ObjectPath, locale: String, model: String) async throws(BusError) -> String {
        let changes = try await bus.signals(
            matching: MatchRule(sender: NotulaBus.name, path: path, interface: Self.properties, member: "PropertiesChanged"))
        _ = try await call(path, .transcribe, [.string(locale), .string(model)])
        for await message in changes {
            let changed = try? message.argument(1, as: [String: Variant].self)
            switch try? changed?[Memo.Property.status.rawValue]?.get(String.self) {
            case "done":
                let values = try await call(path, Self.properties, "GetAll", [.string(Memo.name.rawValue)]).argument(
                    0, as: [String: Variant].self)
                let (locale, model) = (
                    try values[Memo.Property.locale.rawValue]?.get(String.self), try values[Memo.Property.model.rawValue]?.get(String.self)
                )
                return "Memo \(Self.id(of: path)) transcribed again in \(locale ?? "") with \(model ?? "")"
            case "failed":
                let failure = try await call(
                    path, Self.properties, "Get", [.string(Memo.name.rawValue), .string(Memo.Property.failure.rawValue)])
                throw BusError(.failed, "\(try failure.argument(0, as: Variant.self).get(String.self)) (its text is kept)")
            default: break
            }
        }
        throw BusError(.disconnected, "Lost the connection to the session bus")
    }

    func invoke(_ method: NotulaBus.Memo.Method, on path: ObjectPath) async throws(BusError) {
        _ = try await call(path, method)
    }

    static func id(of path: ObjectPath) -> String { String(path.rawValue.split(separator: "/").last ?? "") }

    private func paths() async throws(BusError) -> [ObjectPath] {
        try await library(.list, [.uint32(0), .uint32(.max)]).argument(0, as: [ObjectPath].self)
    }

    private func call(_ path: ObjectPath, _ method: Memo.Method, _ arguments: [Value] = []) async throws(BusError) -> Message {
        try await call(path, Memo.name, method.rawValue, arguments)
    }

    private func library(_ method: NotulaBus.Library.Method, _ arguments: [Value]) async throws(BusError) -> Message {
        try await call(NotulaBus.libraryPath, NotulaBus.libraryInterface, method.rawValue, arguments)
    }

    private func call(_ path: ObjectPath, _ interface: InterfaceName, _ member: MemberName, _ arguments: [Value] = [])
        async throws(BusError) -> Message
    {
        try await bus.call(
            MethodCall(destination: NotulaBus.name, path: path, interface: interface, member: member, arguments: arguments))
    }
}
