import DBus

#if canImport(Glibc)
    import Glibc
#endif

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

    /// `recording 12.3`: the state, then the seconds recorded.
    func statusLine() async throws(BusError) -> String {
        let reply = try await call("GetAll", interface: "org.freedesktop.DBus.Properties", [.string(Self.interface.rawValue)])
        let properties = try reply.argument(0, as: [String: Variant].self)
        return Self.line(state: try properties["State"]?.get(String.self), elapsed: try properties["Elapsed"]?.get(Double.self))
    }

    static func line(state: String?, elapsed: Double?) -> String {
        let tenths = Int(((elapsed ?? 0) * 10).rounded(.down))
        return "\(state ?? "unknown") \(tenths / 10).\(tenths % 10)"
    }

    /// Prints the status line now and at every change of state, and `not-running` while the
    /// service is gone, until interrupted.
    func follow() async throws(BusError) -> Never {
        let events = try await bus.signals(
            matching: MatchRule(
                sender: Self.name, path: Self.path, interface: "org.freedesktop.DBus.Properties", member: "PropertiesChanged"),
            MatchRule(
                sender: "org.freedesktop.DBus", interface: "org.freedesktop.DBus", member: "NameOwnerChanged", arg0: Self.name.rawValue))
        do { print(try await statusLine()) } catch  where error.name == .serviceUnknown || error.name == .nameHasNoOwner {
            print("not-running 0.0")
        }
        flush()
        for await message in events {
            if message.member == "NameOwnerChanged" {
                let newOwner = (try? message.argument(2, as: String.self)) ?? ""
                print(newOwner.isEmpty ? "not-running 0.0" : ((try? await statusLine()) ?? "not-running 0.0"))
            } else if let changed = try? message.argument(1, as: [String: Variant].self), let state = changed["State"] {
                print(Self.line(state: try? state.get(String.self), elapsed: try? changed["Elapsed"]?.get(Double.self)))
            }
            flush()
        }
        throw BusError(.disconnected, "Lost the connection to the session bus")
    }

    private func flush() { fflush(nil) }
}
