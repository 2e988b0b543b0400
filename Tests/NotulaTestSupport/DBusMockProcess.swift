import DBus
import Foundation

/// A python3-dbusmock process on a private bus: a peer made from a template, which reports every call it
/// receives as a `MethodCalled` signal and emits its own signals when told. Killed when the value goes.
public final class DBusMockProcess {
    static let mockInterface: InterfaceName = "org.freedesktop.DBus.Mock"

    public let name: BusName
    public let path: ObjectPath
    private let process: Process
    private let client: Bus
    private var calls: AsyncStream<Message>.Iterator

    /// Starts `python3 -m dbusmock --template TEMPLATE` on `bus` and returns once the mock owns `name`.
    /// - Parameter template: a template's name in dbusmock, or the path of a template file.
    public init(on bus: PrivateBus, template: String, parameters: String? = nil, owning name: BusName, at path: ObjectPath) async throws {
        self.name = name
        self.path = path
        client = try await bus.connect()
        // Subscribed before the mock exists: the service may call it the moment it owns the name.
        let called = try await client.signals(matching: MatchRule(path: path, interface: Self.mockInterface, member: "MethodCalled"))
        calls = called.makeAsyncIterator()
        process = Process()
        // Debian's python3-dbusmock is a module of Debian's python3, whichever python3 comes first on PATH.
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = ["-m", "dbusmock", "--template", template] + (parameters.map { ["--parameters", $0] } ?? [])
        process.environment = bus.environment
        process.standardOutput = FileHandle.nullDevice
        try await launch(process, owning: name, on: bus)
    }

    deinit {
        stop()
        Task { [client] in await client.close() }
    }

    /// Kills the mock as a crash would: its name is released.
    public func stop() { kill(process) }

    /// The arguments of the next call of `method` the mock receives, skipping other methods; nil when it is gone.
    public func next(_ method: String) async -> [Value]? {
        while let message = await calls.next() {
            guard (try? message.argument(0, as: String.self)) == method, case .array(_, let arguments)? = message.body.last else {
                continue
            }
            return arguments.map { if case .variant(let value) = $0 { value } else { $0 } }
        }
        return nil
    }

    /// Emits the signal `member` of the mock's main interface, from its name.
    public func emit(_ member: String, _ signature: String, _ arguments: [Value]) async throws {
        try await emitMockSignal(through: client, from: name, at: path, member, signature, arguments)
    }
}

/// Has a python3-dbusmock mock owning `name` emit a signal from `path` (of its main interface when `interface` is "").
func emitMockSignal(
    through client: Bus, from name: BusName, at path: ObjectPath, interface: String = "", _ member: String, _ signature: String,
    _ arguments: [Value]
) async throws {
    _ = try await client.call(
        MethodCall(
            destination: name, path: path, interface: "org.freedesktop.DBus.Mock", member: "EmitSignal",
            arguments: [.string(interface), .string(member), .string(signature), .array(element: "v", arguments.map { .variant($0) })]))
}
