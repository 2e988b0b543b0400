import DBus

/// The names of the XDG desktop portal's RemoteDesktop API, written once for the keyboard and its probe.
enum RemoteDesktopPortal {
    static let name = DesktopPortal.name
    static let path = DesktopPortal.path
    static let remoteDesktop: InterfaceName = "org.freedesktop.portal.RemoteDesktop"
    static let session = DesktopPortal.session
    /// The keyboard's bit in `SelectDevices`' `types`, `Start`'s `devices` and `AvailableDeviceTypes`.
    static let keyboard: UInt32 = 1
    /// The interface version from which `persist_mode` and `restore_token` are understood.
    static let firstPersistentVersion: UInt32 = 2
    /// `persist_mode` 2: the permission lasts until the user revokes it, not only while notulad runs.
    static let persistUntilRevoked: UInt32 = 2

    /// Whether the session bus has a RemoteDesktop portal that can type: the name has an owner or can be
    /// activated, and the portal offers a keyboard among its devices.
    static func offersKeyboard(on bus: Bus, timeout: Duration) async -> Bool {
        do {
            if try await bus.owner(of: name) == nil {
                let activatable = try await bus.callDaemon("ListActivatableNames").argument(0, as: [String].self)
                guard activatable.contains(name.rawValue) else { return false }
            }
            return try await DesktopPortal.property("AvailableDeviceTypes", of: remoteDesktop, on: bus, timeout: timeout) & keyboard != 0
        } catch {
            return false
        }
    }
}
