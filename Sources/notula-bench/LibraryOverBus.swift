import DBus
import Foundation
import NotulaContract

/// The library of `LibrarySearch` served by notulad: what its size costs the service at start,
/// and search, list and a memo's properties as a client gets them, against the bus's own floor.
enum LibraryOverBus {
    private static let floor = MethodCall(
        destination: "org.freedesktop.DBus", path: ObjectPath("/org/freedesktop/DBus")!, interface: "org.freedesktop.DBus",
        member: "GetId")

    /// - Parameters:
    ///   - home: The XDG home holding the filled library (`data/notula/library.sqlite3`).
    ///   - emptyHome: A home of its own for the same service over no memos.
    static func run(_ notulad: String, home: URL, emptyHome: URL, queries: [String], bus: Bus) async throws -> String {
        let (empty, emptyStart) = try await timed { try await LaunchedService.start(notulad, home: emptyHome, bus: bus) }
        let emptyRSS = residentKilobytes(empty.pid)
        try await empty.stop()

        let (service, start) = try await timed { try await LaunchedService.start(notulad, home: home, bus: bus) }
        let rssAtStart = residentKilobytes(service.pid)
        let page = try await bus.call(library(.list, [.uint32(50_000), .uint32(1)]))
        let middle = try page.argument(0, as: [ObjectPath].self)[0]
        let round = [
            floor, library(.list, [.uint32(0), .uint32(50)]),
            call(middle, "org.freedesktop.DBus.Properties", "GetAll", [.string(NotulaBus.memoInterface.rawValue)]),
        ]
        var samples = Array(repeating: [Duration](), count: round.count + 1)
        for query in queries {
            let search = library(.search, [.string(query), .uint32(20)])
            for (index, call) in (round + [search]).enumerated() {
                samples[index].append(try await timed { try await bus.call(call) }.duration)
            }
        }
        let managed = try await timed {
            try await bus.call(call(NotulaBus.rootPath, "org.freedesktop.DBus.ObjectManager", "GetManagedObjects"))
        }
        .duration
        let rssAfter = residentKilobytes(service.pid)
        try await service.stop()

        let latencies = samples.map(Latencies.init)
        func row(_ name: String, _ index: Int) -> String {
            let value = latencies[index]
            return
                "| \(name) | \(fixed(microseconds(value.median), 0)) | \(fixed(microseconds(value.p99), 0)) | \(fixed(microseconds(value.median) / microseconds(latencies[0].median), 1)) |"
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

    private static func call(_ path: ObjectPath, _ interface: InterfaceName, _ member: MemberName, _ arguments: [Value] = [])
        -> MethodCall
    {
        MethodCall(destination: NotulaBus.name, path: path, interface: interface, member: member, arguments: arguments)
    }

    private static func library(_ method: NotulaBus.Library.Method, _ arguments: [Value]) -> MethodCall {
        call(NotulaBus.libraryPath, NotulaBus.libraryInterface, method.rawValue, arguments)
    }
}
