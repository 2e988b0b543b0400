import DBus
import Foundation

/// python3-dbusmock's `logind` template on a private bus standing in for the system bus: what
/// notulad finds at `DBUS_SYSTEM_BUS_ADDRESS`. Killed when the value goes.
public final class LogindMock {
    static let name: BusName = "org.freedesktop.login1"
    static let path = ObjectPath("/org/freedesktop/login1")!

    /// The private bus that plays the system bus.
    public let systemBus: PrivateBus
    private let process: Process
    private let client: Bus

    /// Starts a bus and the mock on it; returns once the mock owns `org.freedesktop.login1`.
    public init() async throws {
        systemBus = try PrivateBus()
        client = try await systemBus.connect()
        process = Process()
        // Debian's python3-dbusmock is installed for Debian's python, whatever `python3` is on PATH.
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = ["-m", "dbusmock", "--system", "--template", "logind"]
        process.environment = systemBus.environment.merging(["DBUS_SYSTEM_BUS_ADDRESS": systemBus.address]) { $1 }
        process.standardOutput = FileHandle.nullDevice
        try await launch(process, owning: Self.name, watchedFrom: client)
    }

    /// What notulad needs in its environment to find this as its system bus.
    public var environment: [String: String] { ["DBUS_SYSTEM_BUS_ADDRESS": systemBus.address] }

    /// `PrepareForSleep(going)`: true before the machine sleeps, false once it woke.
    public func prepareForSleep(_ going: Bool) async throws {
        try await emitMockSignal(
            through: client, from: Self.name, at: Self.path, interface: "org.freedesktop.login1.Manager", "PrepareForSleep", "b",
            [.boolean(going)])
    }

    /// Who holds a delay lock on sleep, as logind's ListInhibitors tells.
    public func sleepDelayLocks() async throws -> [String] {
        let reply = try await client.call(
            MethodCall(destination: Self.name, path: Self.path, interface: "org.freedesktop.login1.Manager", member: "ListInhibitors"))
        guard case .array(_, let inhibitors)? = reply.body.first else { return [] }
        return inhibitors.compactMap { inhibitor in
            guard case .structure(let fields) = inhibitor, fields.count >= 4, fields[0] == .string("sleep"), fields[3] == .string("delay"),
                case .string(let who) = fields[1]
            else { return nil }
            return who
        }
    }

    deinit {
        kill(process)
        Task { [client] in await client.close() }
    }
}
