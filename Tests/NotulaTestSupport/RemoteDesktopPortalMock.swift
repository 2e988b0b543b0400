import DBus
import Foundation

/// A RemoteDesktop portal of interface version 2 made with python3-dbusmock (it has no template for one), as
/// xdg-desktop-portal 1.18+ is: every request answered at once with `Response` 0 on the path its `handle_token`
/// makes, `Start` giving a new `restore_token` each time (`token-1`, `token-2`…), and each call reported. For what
/// Debian 12's portal (version 1) cannot show: the remembered permission. Killed when the value goes.
public final class RemoteDesktopPortalMock {
    public static let name: BusName = "org.freedesktop.portal.Desktop"
    public static let path = ObjectPath("/org/freedesktop/portal/desktop")!

    private static let template = """
        import dbus
        import dbus.lowlevel

        BUS_NAME = 'org.freedesktop.portal.Desktop'
        MAIN_OBJ = '/org/freedesktop/portal/desktop'
        MAIN_IFACE = 'org.freedesktop.portal.RemoteDesktop'
        SYSTEM_BUS = False


        def load(mock, parameters):
            # dbusmock does not tell a method who called: the one client's unique name, as the portal writes it.
            sender = parameters['sender']
            started = [0]

            def respond(options, results):
                path = '/org/freedesktop/portal/desktop/request/%s/%s' % (sender, options['handle_token'])
                response = dbus.lowlevel.SignalMessage(path, 'org.freedesktop.portal.Request', 'Response')
                response.append(dbus.UInt32(0), dbus.Dictionary(results, signature='sv'), signature='ua{sv}')
                mock.connection.send_message(response)
                return dbus.ObjectPath(path)

            def create_session(self, options):
                session = '/org/freedesktop/portal/desktop/session/%s/%s' % (sender, options['session_handle_token'])
                return respond(options, {'session_handle': dbus.String(session)})

            def start(self, session, parent, options):
                started[0] += 1
                return respond(options, {'devices': dbus.UInt32(1), 'restore_token': dbus.String('token-%d' % started[0])})

            mock.AddProperties(MAIN_IFACE, {'version': dbus.UInt32(2), 'AvailableDeviceTypes': dbus.UInt32(7)})
            mock.AddMethods(MAIN_IFACE, [
                ('CreateSession', 'a{sv}', 'o', create_session),
                ('SelectDevices', 'oa{sv}', 'o', lambda self, session, options: respond(options, {})),
                ('Start', 'osa{sv}', 'o', start),
                ('NotifyKeyboardKeysym', 'oa{sv}iu', '', ''),
            ])
        """

    private let mock: DBusMockProcess
    private let templateFile: URL

    /// Starts the portal on `bus` for the one client `client` (its unique name), and returns once it owns its name.
    public init(on bus: PrivateBus, for client: Bus) async throws {
        templateFile = FileManager.default.temporaryDirectory.appendingPathComponent("notula_portal_\(UUID().uuidString.prefix(8)).py")
        try Data(Self.template.utf8).write(to: templateFile)
        let sender = await client.uniqueName.dropFirst().replacingOccurrences(of: ".", with: "_")
        mock = try await DBusMockProcess(
            on: bus, template: templateFile.path, parameters: #"{"sender": "\#(sender)"}"#, owning: Self.name, at: Self.path)
    }

    deinit { try? FileManager.default.removeItem(at: templateFile) }

    /// The options of the next `SelectDevices`; nil when the portal is gone.
    public func nextDeviceSelection() async -> [String: Value]? {
        guard case .dictionary(_, _, let entries)? = await mock.next("SelectDevices")?.last else { return nil }
        var options: [String: Value] = [:]
        for entry in entries {
            guard case .string(let key) = entry.key, case .variant(let value) = entry.value else { continue }
            options[key] = value
        }
        return options
    }

    /// The keysym and state (1 pressed, 0 released) of the next key event; nil when the portal is gone.
    public func nextKeyEvent() async -> (keysym: Int32, state: UInt32)? {
        guard let arguments = await mock.next("NotifyKeyboardKeysym"), arguments.count == 4, case .int32(let keysym) = arguments[2],
            case .uint32(let state) = arguments[3]
        else { return nil }
        return (keysym, state)
    }
}
