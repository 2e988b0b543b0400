import DBus

/// `org.freedesktop.Notifications` on a bus: whichever server owns the name (GNOME Shell, Plasma, dunst, mako, …).
public struct BusNotificationServer: NotificationServer {
    public static let name: BusName = "org.freedesktop.Notifications"
    static let path = ObjectPath("/org/freedesktop/Notifications")!
    static let interface: InterfaceName = "org.freedesktop.Notifications"
    /// The `app_name` servers show and group by.
    static let appName = "Notula"
    /// A server that hangs must not hold the notifications behind it for libdbus's 25 s.
    static let timeout = Duration.seconds(5)

    private let bus: Bus

    public init(bus: Bus) { self.bus = bus }

    public func events() async throws(BusError) -> AsyncStream<NotificationServerEvent> {
        let messages = try await bus.signals(
            matching: MatchRule(sender: Self.name, path: Self.path, interface: Self.interface, member: "ActionInvoked", signature: "us"),
            MatchRule(sender: Self.name, path: Self.path, interface: Self.interface, member: "NotificationClosed", signature: "uu"),
            .ownerChanges(of: Self.name))
        return AsyncStream { continuation in
            let reading = Task {
                for await message in messages {
                    if let event = Self.event(in: message) { continuation.yield(event) }
                }
                continuation.finish()
            }
            continuation.onTermination = { _ in reading.cancel() }
        }
    }

    /// The event a signal carries; nil for one with arguments of other types (a peer's bad data is ignored, not trusted).
    static func event(in message: Message) -> NotificationServerEvent? {
        switch message.member {
        case "ActionInvoked":
            guard let id = try? message.argument(0, as: UInt32.self), let key = try? message.argument(1, as: String.self) else {
                return nil
            }
            return .actionInvoked(id: id, key: key)
        case "NotificationClosed":
            guard let id = try? message.argument(0, as: UInt32.self), let reason = try? message.argument(1, as: UInt32.self) else {
                return nil
            }
            return .closed(id: id, reason: reason)
        case "NameOwnerChanged":
            guard let owner = try? message.argument(2, as: String.self) else { return nil }
            return owner.isEmpty ? .vanished : .appeared
        default:
            return nil
        }
    }

    public func capabilities() async throws(BusError) -> Set<String> {
        let reply = try await call("GetCapabilities")
        return Set(try reply.argument(0, as: [String].self))
    }

    public func notify(_ notification: DesktopNotification, replacing id: UInt32) async throws(BusError) -> UInt32 {
        let reply = try await call(
            "Notify",
            [
                .string(Self.appName), .uint32(id), .string(notification.icon), .string(notification.summary),
                .string(notification.body), notification.flatActions.dbusValue, notification.hints.dictionary.dbusValue,
                .int32(notification.expireTimeout),
            ])
        return try reply.argument(0, as: UInt32.self)
    }

    public func close(_ id: UInt32) async throws(BusError) {
        _ = try await call("CloseNotification", [.uint32(id)])
    }

    private func call(_ member: MemberName, _ arguments: [Value] = []) async throws(BusError) -> Message {
        try await bus.call(
            MethodCall(destination: Self.name, path: Self.path, interface: Self.interface, member: member, arguments: arguments),
            timeout: Self.timeout)
    }
}
