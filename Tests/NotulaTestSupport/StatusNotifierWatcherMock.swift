import DBus
import Foundation

/// A StatusNotifierWatcher made with python3-dbusmock (it has no template for one): it keeps the items
/// registered with it in `RegisteredStatusNotifierItems`, as a panel's watcher does, and reports each
/// `RegisterStatusNotifierItem`. Killed when the value goes.
public final class StatusNotifierWatcherMock {
    public static let name: BusName = "org.kde.StatusNotifierWatcher"
    public static let path = ObjectPath("/StatusNotifierWatcher")!

    /// The template: the watcher's methods and properties (StatusNotifierItem specification), in dbusmock's terms.
    private static let template = """
        import dbus

        BUS_NAME = 'org.kde.StatusNotifierWatcher'
        MAIN_OBJ = '/StatusNotifierWatcher'
        MAIN_IFACE = 'org.kde.StatusNotifierWatcher'
        SYSTEM_BUS = False

        def load(mock, parameters):
            mock.AddProperties(MAIN_IFACE, {
                'RegisteredStatusNotifierItems': dbus.Array([], signature='s'),
                'IsStatusNotifierHostRegistered': True,
                'ProtocolVersion': dbus.Int32(0),
            })
            mock.AddMethods(MAIN_IFACE, [
                ('RegisterStatusNotifierItem', 's', '',
                 # Method code runs in dbusmock's own module: the interface is spelled out.
                 'i = "org.kde.StatusNotifierWatcher"; '
                 'self.Set(i, "RegisteredStatusNotifierItems", '
                 'dbus.Array(list(self.Get(i, "RegisteredStatusNotifierItems")) + [args[0]], signature="s")); '
                 'self.EmitSignal(i, "StatusNotifierItemRegistered", "s", [args[0]])'),
                ('RegisterStatusNotifierHost', 's', '', ''),
            ])
        """

    private let mock: DBusMockProcess
    private let templateFile: URL

    /// Starts the watcher on `bus` and returns once it owns `org.kde.StatusNotifierWatcher`.
    public init(on bus: PrivateBus) async throws {
        templateFile = FileManager.default.temporaryDirectory.appendingPathComponent("notula_watcher_\(UUID().uuidString.prefix(8)).py")
        try Data(Self.template.utf8).write(to: templateFile)
        mock = try await DBusMockProcess(on: bus, template: templateFile.path, owning: Self.name, at: Self.path)
    }

    deinit { try? FileManager.default.removeItem(at: templateFile) }

    /// Kills the watcher as a panel that quits does.
    public func stop() { mock.stop() }

    /// The service name or path of the next item that registers; nil when the watcher is gone.
    public func nextRegistration() async -> String? {
        guard case .string(let service)? = await mock.next("RegisterStatusNotifierItem")?.first else { return nil }
        return service
    }
}
