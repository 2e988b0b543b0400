import DBus
import Foundation

/// python3-dbusmock's `notification_daemon` template on a private bus: a notification server
/// that reports every call it receives as a `MethodCalled` signal, and emits the server's
/// signals (`ActionInvoked`, `NotificationClosed`) when told. Killed when the value goes.
public final class NotificationDaemonMock {
    public static let name: BusName = "org.freedesktop.Notifications"
    static let path = ObjectPath("/org/freedesktop/Notifications")!

    private let mock: DBusMockProcess

    /// Starts the mock on `bus` and returns once it owns `org.freedesktop.Notifications`.
    /// - Parameter capabilities: what `GetCapabilities` answers.
    public init(on bus: PrivateBus, capabilities: [String] = ["actions", "body", "body-markup"]) async throws {
        mock = try await DBusMockProcess(
            on: bus, template: "notification_daemon", parameters: #"{"capabilities": "\#(capabilities.joined(separator: " "))"}"#,
            owning: Self.name, at: Self.path)
    }

    /// Kills the server as a crash would: its name is released, its notifications gone.
    public func stop() { mock.stop() }

    /// The arguments of the next call of `method` the server receives, skipping other methods; nil when the mock is gone.
    public func next(_ method: String) async -> [Value]? { await mock.next(method) }

    /// The next `Notify` the server receives.
    public func nextNotification() async -> PostedNotification? {
        guard let arguments = await next("Notify") else { return nil }
        return PostedNotification(arguments)
    }

    /// Emits `ActionInvoked` from the server's name, as a button press does.
    public func invoke(_ key: String, on id: UInt32) async throws {
        try await mock.emit("ActionInvoked", "us", [.uint32(id), .string(key)])
    }

    /// Emits `NotificationClosed`, as the user dismissing it does (reason 2).
    public func dismiss(_ id: UInt32) async throws {
        try await mock.emit("NotificationClosed", "uu", [.uint32(id), .uint32(2)])
    }
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
