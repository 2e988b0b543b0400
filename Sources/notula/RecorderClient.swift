import DBus

/// The recorder object as the command line sees it.
struct RecorderClient {
    static let name: BusName = "org.notula.Notula1"
    static let path = ObjectPath("/org/notula/Notula1/Recorder")!
    static let interface: InterfaceName = "org.notula.Notula1.Recorder"

    let bus: Bus

    func call(_ member: MemberName, interface: InterfaceName = Self.interface, _ arguments: [Value] = []) async throws(BusError)
        -> Message
    {
        try await bus.call(
            MethodCall(destination: Self.name, path: Self.path, interface: interface, member: member, arguments: arguments))
    }

    /// The recorder's properties now.
    /// - Parameter autoStart: whether the bus may start notulad to answer (D-Bus activation).
    func status(autoStart: Bool = true) async throws(BusError) -> RecorderStatus {
        let reply = try await bus.call(
            MethodCall(
                destination: Self.name, path: Self.path, interface: "org.freedesktop.DBus.Properties", member: "GetAll",
                arguments: [.string(Self.interface.rawValue)], autoStart: autoStart))
        return RecorderStatus(properties: try reply.argument(0, as: [String: Variant].self))
    }

    /// The status, or `not-running` without starting the service: a bar following it must not start notulad at login.
    func statusIfRunning() async -> RecorderStatus {
        (try? await status(autoStart: false)) ?? .notRunning
    }
}
