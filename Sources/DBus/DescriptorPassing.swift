import CDBus
import Glibc

extension Bus {
    /// Whether a message carrying a file descriptor reaches `peer`.
    ///
    /// The daemon routes one only to a connection that negotiated descriptor passing (none over TCP, say), and
    /// answers the sender `NotSupported` otherwise; the peer's own library is never asked. So a `Ping` carrying
    /// `/dev/null` is sent to `peer`, then a call to the daemon: the daemon handles the two in order, so by the
    /// time it answers the second, its refusal of the first, if any, has arrived. The peer's answer to the
    /// `Ping` is not waited for (a peer blocked in a call to us gives it only later) and is dropped.
    public func canPassFileDescriptors(to peer: BusName) async throws(BusError) -> Bool {
        guard let connection else { throw BusError(.disconnected, "Not connected to the bus") }
        let null = open("/dev/null", O_RDONLY | O_CLOEXEC)
        guard null >= 0 else { throw BusError(.failed, "Cannot open /dev/null to probe descriptor passing") }
        let probe = MethodCall(
            destination: peer, path: .root, interface: "org.freedesktop.DBus.Peer", member: "Ping",
            arguments: [.unixFD(FileDescriptor(owning: null))])
        let message = try probe.makeMessage()
        defer { dbus_message_unref(message) }
        var pending: OpaquePointer?
        guard dbus_connection_send_with_reply(connection, message, &pending, -1) != 0, let pending else {
            throw BusError(.disconnected, "The bus connection is closed")
        }
        defer {
            dbus_pending_call_cancel(pending)
            dbus_pending_call_unref(pending)
        }
        _ = try await callDaemon("GetId")
        guard dbus_pending_call_get_completed(pending) != 0, let reply = dbus_pending_call_steal_reply(pending) else { return true }
        defer { dbus_message_unref(reply) }
        let header = MessageHeader(reply)
        return !(header.sender == BusName.daemon.rawValue && header.errorName == ErrorName.notSupported.rawValue)
    }
}
