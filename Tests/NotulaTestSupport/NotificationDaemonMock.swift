import DBus
import Foundation

/// python3-dbusmock's `notification_daemon` template on a private bus: a notification server
/// that reports every call it receives as a `MethodCalled` signal, and emits the server's
/// signals (`ActionInvoked`, `NotificationClosed`) when told. Killed when the value goes.
public final class NotificationDaemonMock {
    public static let name: BusName = "org.freedesktop.Notifications"
    static let path = ObjectPath("/org/freedesktop/Notifications")!
    static let mockInterface: InterfaceName = "org.freedesktop.DBus.Mock"

    private let process: Process
    private let client: Bus
    private var calls: AsyncStream<Message>.Iterator

    /// Starts the mock on `bus` and returns once it owns `org.freedesktop.Notifications`.
    /// - Parameter capabilities: what `GetCapabilities` answers.
    public init(on bus: PrivateBus, capabilities: [String] = ["actions", "body", "body-markup"]) async throws {
        client = try await bus.connect()
        // Subscribed before the mock exists: the service may call it the moment it owns the name.
        let called = try await client.signals(matching: MatchRule(path: Self.path, interface: Self.mockInterface, member: "MethodCalled"))
        calls = called.makeAsyncIterator()
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        let parameters = #"{"capabilities": "\#(capabilities.joined(separator: " "))"}"#
        process.arguments = ["-m", "dbusmock", "--template", "notification_daemon", "--parameters", parameters]
        process.environment = bus.environment
        process.standardOutput = FileHandle.nullDevice
        try await launch(process, owning: Self.name, on: bus)
    }

    deinit {
        stop()
        Task { [client] in await client.close() }
    }

    /// Kills the server as a crash would: its name is released, its notifications gone.
    public func stop() { kill(process) }

    /// The arguments of the next call of `method` the server receives, skipping other methods; nil when the mock is gone.
    public func next(_ method: String) async -> [Value]? {
        while let message = await calls.next() {
            guard (try? message.argument(0, as: String.self)) == method, case .array(_, let arguments)? = message.body.last else {
                continue
            }
            return arguments.map { if case .variant(let value) = $0 { value } else { $0 } }
        }
        return nil
    }

    /// The next `Notify` the server receives.
    public func nextNotification() async -> PostedNotification? {
        guard let arguments = await next("Notify") else { return nil }
        return PostedNotification(arguments)
    }

    /// Emits `ActionInvoked` from the server's name, as a button press does.
    public func invoke(_ key: String, on id: UInt32) async throws {
        try await emit("ActionInvoked", "us", [.uint32(id), .string(key)])
    }

    /// Emits `NotificationClosed`, as the user dismissing it does (reason 2).
    public func dismiss(_ id: UInt32) async throws {
        try await emit("NotificationClosed", "uu", [.uint32(id), .uint32(2)])
    }

    private func emit(_ member: String, _ signature: String, _ arguments: [Value]) async throws {
        try await emitMockSignal(through: client, from: Self.name, at: Self.path, member, signature, arguments)
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

/// The arguments of one `Notify` call, typed.
public struct PostedNotification: Sendable {
    public let replacesID: UInt32
    public let icon: String
    public let summary: String
    public let body: String
    /// Flat, as the spec has it: key, label, key, label, …
    public let actions: [String]
    public let hints: [String: Value]
    public let expireTimeout: Int32

    init?(_ arguments: [Value]) {
        guard arguments.count == 8, case .uint32(let replacesID) = arguments[1], case .string(let icon) = arguments[2],
            case .string(let summary) = arguments[3], case .string(let body) = arguments[4],
            let actions = try? [String](dbusValue: arguments[5]), case .dictionary(_, _, let entries) = arguments[6],
            case .int32(let expireTimeout) = arguments[7]
        else { return nil }
        self.replacesID = replacesID
        self.icon = icon
        self.summary = summary
        self.body = body
        self.actions = actions
        var hints: [String: Value] = [:]
        for entry in entries {
            guard case .string(let key) = entry.key else { continue }
            hints[key] = if case .variant(let value) = entry.value { value } else { entry.value }
        }
        self.hints = hints
        self.expireTimeout = expireTimeout
    }
}
