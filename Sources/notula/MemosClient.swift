import DBus
import FoundationEssentials

#if canImport(Glibc)
    import Glibc
#endif

/// The memo library as the command line sees it: `notula memos …`.
struct MemosClient {
    static let libraryPath = ObjectPath("/org/notula/Notula1/Library")!
    static let libraryInterface: InterfaceName = "org.notula.Notula1.Library"
    static let memoInterface: InterfaceName = "org.notula.Notula1.Memo"
    private static let properties: InterfaceName = "org.freedesktop.DBus.Properties"

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

    /// Every memo, newest first.
    func all() async throws(BusError) -> [Summary] {
        var summaries: [Summary] = []
        for path in try await paths() { summaries.append(try await summary(path)) }
        return summaries
    }

    /// The memos matching `query`, best first, with their snippets.
    func search(_ query: String) async throws(BusError) -> [Summary] {
        let reply = try await call(Self.libraryPath, Self.libraryInterface, "Search", [.string(query), .uint32(50)])
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
        let reply = try await call(path, Self.properties, "GetAll", [.string(Self.memoInterface.rawValue)])
        let values = try reply.argument(0, as: [String: Variant].self)
        return Summary(
            id: Self.id(of: path), path: path.rawValue, title: try values["Title"]?.get(String.self) ?? "",
            created: try values["Created"]?.get(Int64.self) ?? 0, duration: try values["Duration"]?.get(Double.self) ?? 0,
            status: try values["Status"]?.get(String.self) ?? "", locale: try values["Locale"]?.get(String.self) ?? "",
            audioFile: try values["AudioFile"]?.get(String.self) ?? "")
    }

    /// The transcript, or why there is none.
    func transcript(_ path: ObjectPath) async -> String {
        do throws(BusError) {
            return try await call(path, Self.memoInterface, "GetTranscript").argument(0, as: String.self)
        } catch { return "(no transcript: \(error.message))" }
    }

    func export(_ path: ObjectPath, format: String) async throws(BusError) -> String {
        try await call(path, Self.memoInterface, "Export", [.string(format)]).argument(0, as: String.self)
    }

    func rename(_ path: ObjectPath, to title: String) async throws(BusError) {
        _ = try await call(
            path, Self.properties, "Set", [.string(Self.memoInterface.rawValue), .string("Title"), .variant(.string(title))])
    }

    func invoke(_ member: MemberName, on path: ObjectPath) async throws(BusError) {
        _ = try await call(path, Self.memoInterface, member)
    }

    static func id(of path: ObjectPath) -> String { String(path.rawValue.split(separator: "/").last ?? "") }

    private func paths() async throws(BusError) -> [ObjectPath] {
        try await call(Self.libraryPath, Self.libraryInterface, "List", [.uint32(0), .uint32(.max)]).argument(0, as: [ObjectPath].self)
    }

    private func call(_ path: ObjectPath, _ interface: InterfaceName, _ member: MemberName, _ arguments: [Value] = [])
        async throws(BusError) -> Message
    {
        try await bus.call(
            MethodCall(destination: RecorderClient.name, path: path, interface: interface, member: member, arguments: arguments))
    }
}
