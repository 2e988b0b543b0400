import DBus

/// The graphical session as it is now: notulad's own environment, overlaid with the user manager's
/// (`dbus-update-activation-environment --systemd`, `systemctl --user import-environment`), which a session
/// fills after a D-Bus-activated notulad has started.
public struct SessionEnvironment: Sendable {
    private let bus: Bus
    private let own: [String: String]

    public init(bus: Bus, own: [String: String]) {
        self.bus = bus
        self.own = own
    }

    static let manager: BusName = "org.freedesktop.systemd1"

    public func read() async -> DesktopSession {
        var environment = own
        for (name, value) in await managerEnvironment() { environment[name] = value }
        return DesktopSession(environment: environment)
    }

    /// The user manager's environment, or none where no manager is on the bus (a private bus, a system without systemd).
    private func managerEnvironment() async -> [String: String] {
        let get = MethodCall(
            destination: Self.manager, path: ObjectPath("/org/freedesktop/systemd1")!, interface: "org.freedesktop.DBus.Properties",
            member: "Get", arguments: [.string("org.freedesktop.systemd1.Manager"), .string("Environment")])
        guard let reply = try? await bus.call(get, timeout: .seconds(2)),
            let assignments = try? reply.argument(0, as: Variant.self).get([String].self)
        else { return [:] }
        return Dictionary(
            assignments.prefix(1_000).compactMap { assignment in
                guard let equals = assignment.firstIndex(of: "=") else { return nil }
                return (String(assignment[..<equals]), String(assignment[assignment.index(after: equals)...]))
            }, uniquingKeysWith: { _, last in last })
    }
}
