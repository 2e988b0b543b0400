import DBus

/// A user's hands on a headless desktop's keyboard: chords pressed, held as long as the test likes, and released —
/// what the desktop's own shortcut handling sees as keys. Through the RemoteDesktop portal (KDE's starts a
/// keyboard-only session without asking), or on GNOME through mutter's own remote desktop, which asks nothing.
public actor DesktopKeys {
    public enum Key: Int32, Sendable {
        case control = 0xffe3
        case shift = 0xffe1
        case alt = 0xffe9
        case m = 0x6d
        case n = 0x6e
    }

    private static let remoteDesktop: InterfaceName = "org.freedesktop.portal.RemoteDesktop"
    private static let mutter: BusName = "org.gnome.Mutter.RemoteDesktop"
    private static let mutterSession: InterfaceName = "org.gnome.Mutter.RemoteDesktop.Session"
    private let bus: Bus
    private let session: ObjectPath
    private let throughMutter: Bool

    private init(bus: Bus, session: ObjectPath, throughMutter: Bool) {
        self.bus = bus
        self.session = session
        self.throughMutter = throughMutter
    }

    /// A session of mutter's remote desktop on `bus` (GNOME Shell's); its first key is lost, so a Shift tap goes first.
    public static func openMutter(on bus: Bus) async throws -> DesktopKeys {
        let created = try await bus.call(
            MethodCall(
                destination: mutter, path: ObjectPath("/org/gnome/Mutter/RemoteDesktop")!, interface: "org.gnome.Mutter.RemoteDesktop",
                member: "CreateSession"))
        let session = try created.argument(0, as: ObjectPath.self)
        _ = try await bus.call(MethodCall(destination: mutter, path: session, interface: mutterSession, member: "Start"))
        let keys = DesktopKeys(bus: bus, session: session, throughMutter: true)
        try await keys.tap([.shift])
        return keys
    }

    /// A keyboard session of its own on the portal of `bus`.
    public static func openPortal(on bus: Bus) async throws -> DesktopKeys {
        let requests = PortalRequest(bus: bus, interface: remoteDesktop, callTimeout: .seconds(10))
        let created = try await requests.call(
            "CreateSession", [], options: ["session_handle_token": Variant(PortalRequest.makeToken())], answerWithin: .seconds(10))
        guard let session = DesktopPortal.sessionHandle(in: created) else {
            throw PortalSessionMissing(results: "\(created)")
        }
        _ = try await requests.call(
            "SelectDevices", [.objectPath(session)], options: ["types": Variant(UInt32(1))], answerWithin: .seconds(10))
        _ = try await requests.call("Start", [.objectPath(session), .string("")], answerWithin: .seconds(10))
        return DesktopKeys(bus: bus, session: session, throughMutter: false)
    }

    /// Presses `keys` in order and keeps them down.
    public func press(_ keys: [Key]) async throws {
        for key in keys { try await send(key, down: true) }
    }

    /// Releases `keys`, the last pressed first.
    public func release(_ keys: [Key]) async throws {
        for key in keys.reversed() { try await send(key, down: false) }
    }

    public func tap(_ keys: [Key]) async throws {
        try await press(keys)
        try await release(keys)
    }

    private func send(_ key: Key, down: Bool) async throws {
        if throughMutter {
            _ = try await bus.call(
                MethodCall(
                    destination: Self.mutter, path: session, interface: Self.mutterSession, member: "NotifyKeyboardKeysym",
                    arguments: [.uint32(UInt32(key.rawValue)), .boolean(down)]))
            return
        }
        _ = try await bus.call(
            MethodCall(
                destination: DesktopPortal.name, path: DesktopPortal.path, interface: Self.remoteDesktop, member: "NotifyKeyboardKeysym",
                arguments: [.objectPath(session), [String: Variant]().dbusValue, .int32(key.rawValue), .uint32(down ? 1 : 0)]))
    }
}

public struct PortalSessionMissing: Error {
    public let results: String
}
