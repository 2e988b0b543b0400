import DBus

/// A user's hands on a headless desktop's keyboard, through its RemoteDesktop portal (KDE's starts a keyboard-only
/// session without asking): chords pressed, held as long as the test likes, and released — what the desktop's own
/// shortcut handling sees as keys.
public actor PortalChords {
    public enum Key: Int32, Sendable {
        case control = 0xffe3
        case alt = 0xffe9
        case m = 0x6d
        case n = 0x6e
    }

    private static let remoteDesktop: InterfaceName = "org.freedesktop.portal.RemoteDesktop"
    private let bus: Bus
    private let session: ObjectPath

    private init(bus: Bus, session: ObjectPath) {
        self.bus = bus
        self.session = session
    }

    /// A keyboard session of its own on the portal of `bus`.
    public static func open(on bus: Bus) async throws -> PortalChords {
        let requests = PortalRequest(bus: bus, interface: remoteDesktop, callTimeout: .seconds(10))
        let created = try await requests.call(
            "CreateSession", [], options: ["session_handle_token": Variant(PortalRequest.makeToken())], answerWithin: .seconds(10))
        guard let handle = try? created["session_handle"]?.get(String.self), let session = ObjectPath(handle) else {
            throw PortalSessionMissing(results: "\(created)")
        }
        _ = try await requests.call(
            "SelectDevices", [.objectPath(session)], options: ["types": Variant(UInt32(1))], answerWithin: .seconds(10))
        _ = try await requests.call("Start", [.objectPath(session), .string("")], answerWithin: .seconds(10))
        return PortalChords(bus: bus, session: session)
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
        _ = try await bus.call(
            MethodCall(
                destination: DesktopPortal.name, path: DesktopPortal.path, interface: Self.remoteDesktop, member: "NotifyKeyboardKeysym",
                arguments: [.objectPath(session), [String: Variant]().dbusValue, .int32(key.rawValue), .uint32(down ? 1 : 0)]))
    }
}

public struct PortalSessionMissing: Error {
    public let results: String
}
