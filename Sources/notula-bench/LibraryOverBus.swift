import DBus
import Foundation

/// The library of `LibrarySearch` served by notulad: what its size costs the service at start,
/// and search, list and a memo's properties as a client gets them, against the bus's own floor.
enum LibraryOverBus {
    static let rootPath = ObjectPath("/org/notula/Notula1")!
    static let libraryPath = ObjectPath("/org/notula/Notula1/Library")!
    static let libraryInterface: InterfaceName = "org.notula.Notula1.Library"

    private static let floor = MethodCall(
        destination: "org.freedesktop.DBus", path: ObjectPath("/org/freedesktop/DBus")!, interface: "org.freedesktop.DBus",
        member: "GetId")

    /// - Parameters:
    ///   - home: The XDG home holding the filled library (`data/notula/library.sqlite3`).
    ///   - emptyHome: A home of its own for the same service over no memos.
    static func run(_ notulad: String, home: URL, emptyHome: URL, queries: [String], bus: Bus) async throws -> String {
        let (empty, emptyStart) = try await timedStart(notulad, home: emptyHome, bus: bus)
        let emptyRSS = residentKilobytes(empty.pid)
        try await empty.stop()

        let (service, start) = try await timedStart(notulad, home: home, bus: bus)
        let rssAtStart = residentKilobytes(service.pid)
        let page = try await bus.call(call(libraryPath, libraryInterface, "List", [.uint32(50_000), .uint32(1)]))
        let middle = try page.argument(0, as: [ObjectPath].self)[0]
        let round = [
            floor, call(libraryPath, libraryInterface, "List", [.uint32(0), .uint32(50)]),
            call(middle, "org.freedesktop.DBus.Properties", "GetAll", [.string("org.notula.Notula1.Memo")]),
        ]
        var samples = Array(repeating: [Duration](), count: round.count + 1)
        let clock = ContinuousClock()
        for query in queries {
            for (index, call) in round.enumerated() {
                let begin = clock.now
                _ = try await bus.call(call)
                samples[index].append(clock.now - begin)
            }
            let begin = clock.now
            _ = try await bus.call(call(libraryPath, libraryInterface, "Search", [.string(query), .uint32(20)]))
            samples[round.count].append(clock.now - begin)
        }
        let (_, managed) = try await timedCall(call(rootPath, "org.freedesktop.DBus.ObjectManager", "GetManagedObjects"), bus)
        let rssAfter = residentKilobytes(service.pid)
        try await service.stop()

        let latencies = samples.map(Latencies.init)
        func row(_ name: String, _ index: Int) -> String {
            let value = latencies[index]
            return "| \(name) | \(fixed(microseconds(value.median), 0)) | \(fixed(microseconds(value.p99), 0)) | \(fixed(microseconds(value.median) / microseconds(latencies[0].median), 1)) |"
        }
        return """
            The same library served by notulad (\(queries.count) rounds, each call once a round)
            | over the bus | median µs | p99 µs | median ÷ floor |
            |---|---|---|---|
            \(row("GetId (dbus-daemon, the floor)", 0))
            \(row("Search(query, 20)", round.count))
            \(row("List(0, 50)", 1))
            \(row("GetAll of a memo", 2))

            | notulad | no memos | \(LibrarySearch.memoCount) memos |
            |---|---|---|
            | start, until its name is owned | \(secondsText(emptyStart)) | \(secondsText(start)) |
            | RSS at start | \(megabytesText(kilobytes: emptyRSS)) | \(megabytesText(kilobytes: rssAtStart)) |
            | RSS after the calls above and one GetManagedObjects (\(secondsText(managed))) | | \(megabytesText(kilobytes: rssAfter)) |
            """
    }

    private static func timedStart(_ notulad: String, home: URL, bus: Bus) async throws -> (LaunchedService, Duration) {
        let clock = ContinuousClock()
        let begin = clock.now
        let service = try await LaunchedService.start(notulad, home: home, bus: bus)
        return (service, clock.now - begin)
    }

    private static func timedCall(_ call: MethodCall, _ bus: Bus) async throws -> (Message, Duration) {
        let clock = ContinuousClock()
        let begin = clock.now
        let reply = try await bus.call(call)
        return (reply, clock.now - begin)
    }

    private static func call(_ path: ObjectPath, _ interface: InterfaceName, _ member: MemberName, _ arguments: [Value] = [])
        -> MethodCall
    {
        MethodCall(destination: LaunchedService.name, path: path, interface: interface, member: member, arguments: arguments)
    }
}
