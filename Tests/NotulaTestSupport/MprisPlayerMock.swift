import DBus
import Foundation

/// A media player as MPRIS 2 describes it, made with python3-dbusmock (it has no template for one): `Pause` and
/// `Play` change its `PlaybackStatus`, and every call is reported. Killed when the value goes.
public final class MprisPlayerMock {
    public static let path = ObjectPath("/org/mpris/MediaPlayer2")!
    private static let interface = "org.mpris.MediaPlayer2.Player"

    public let name: BusName
    private let mock: DBusMockProcess
    private let templateFile: URL
    private let client: Bus

    /// Starts the player `org.mpris.MediaPlayer2.<suffix>` on `bus`, `status` Playing, Paused or Stopped.
    public init(on bus: PrivateBus, suffix: String, status: String, canPause: Bool = true) async throws {
        name = BusName("org.mpris.MediaPlayer2.\(suffix)")!
        let template = """
            BUS_NAME = '\(name.rawValue)'
            MAIN_OBJ = '/org/mpris/MediaPlayer2'
            MAIN_IFACE = 'org.mpris.MediaPlayer2.Player'
            SYSTEM_BUS = False

            def load(mock, parameters):
                mock.AddProperties(MAIN_IFACE, {'PlaybackStatus': '\(status)', 'CanPause': \(canPause ? "True" : "False")})
                # Method code runs in dbusmock's own module: the interface is spelled out.
                mock.AddMethods(MAIN_IFACE, [
                    ('Pause', '', '', 'self.Set("org.mpris.MediaPlayer2.Player", "PlaybackStatus", "Paused")'),
                    ('Play', '', '', 'self.Set("org.mpris.MediaPlayer2.Player", "PlaybackStatus", "Playing")'),
                ])
            """
        templateFile = FileManager.default.temporaryDirectory.appendingPathComponent("notula_mpris_\(UUID().uuidString.prefix(8)).py")
        try Data(template.utf8).write(to: templateFile)
        mock = try await DBusMockProcess(on: bus, template: templateFile.path, owning: name, at: Self.path)
        client = try await bus.connect()
    }

    deinit {
        try? FileManager.default.removeItem(at: templateFile)
        Task { [client] in await client.close() }
    }

    /// Returns once the player is called `method` (skipping other calls); false when it is gone first.
    public func called(_ method: String) async -> Bool { await mock.next(method) != nil }

    /// Its `PlaybackStatus` now.
    public func status() async throws -> String {
        let reply = try await client.call(
            MethodCall(
                destination: name, path: Self.path, interface: "org.freedesktop.DBus.Properties", member: "Get",
                arguments: [.string(Self.interface), .string("PlaybackStatus")]))
        guard case .string(let status) = try reply.argument(0, as: Variant.self).value else { return "" }
        return status
    }

    /// Plays it, as the user pressing its play button does.
    public func play() async throws {
        _ = try await client.call(MethodCall(destination: name, path: Self.path, interface: InterfaceName(Self.interface)!, member: "Play"))
    }
}
