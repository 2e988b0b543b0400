import DBus
import Foundation
import NotulaContract
import NotulaTestSupport
import Testing

@Suite("A sandboxed app, through Flatpak's bus filter, reaches Notula only through the names it was given", .serialized)
struct SandboxedBusTests {
    /// An app allowed `org.kde.*` and `org.mpris.MediaPlayer2.*` (a tray icon, media controls): the tray's and the
    /// player's names lead to their own objects only, never to the recorder, the library or the memos.
    @Test func theTrayAndPlayerNamesLeadToTheirObjectsAndToNothingOfTheRecorders() async throws {
        let bus = try PrivateBus()
        let service = try await ServiceUnderTest.start(settings: [#""mpris": true"#], on: bus)
        try await service.recorder(.start)
        let proxy = try FlatpakBusProxy(
            in: bus, talking: ["org.kde.*", "org.mpris.MediaPlayer2.*"], owning: ["org.mpris.MediaPlayer2.*"])
        let app = try await proxy.connect()
        let tray = try await service.trayName()
        let player: BusName = "org.mpris.MediaPlayer2.notula"
        // The names the filter lets the app see, and the unique names behind them and behind the recorder's.
        var owners = [try await service.client.owner(of: NotulaBus.name)]
        for name in [tray, player] { owners.append(try await app.owner(of: name)) }
        let destinations = [NotulaBus.name, tray, player] + owners.compactMap { $0.flatMap(BusName.init) }
        #expect(destinations.count == 6, "\(destinations)")

        for destination in destinations {
            for (path, interface, member, arguments) in Self.notulaCalls {
                await #expect(throws: BusError.self, "\(member) at \(path) through \(destination)") {
                    _ = try await app.call(
                        MethodCall(destination: destination, path: path, interface: interface, member: member, arguments: arguments))
                }
            }
        }
        #expect(try await service.property(.state) == .string("recording"), "no call through the filter reached the recorder")

        // What the app was given still works: the tray's click pauses, the media key resumes.
        let status = try await app.call(
            MethodCall(
                destination: tray, path: Tray.itemPath, interface: "org.freedesktop.DBus.Properties", member: "Get",
                arguments: [.string(Tray.itemInterface.rawValue), .string("Status")]))
        #expect(try status.argument(0, as: Variant.self).value == .string("Active"))
        _ = try await app.call(
            MethodCall(destination: tray, path: Tray.itemPath, interface: Tray.itemInterface, member: "Activate", arguments: [.int32(0), .int32(0)]))
        try await service.waitForState("paused")
        _ = try await app.call(
            MethodCall(destination: player, path: ObjectPath("/org/mpris/MediaPlayer2")!, interface: "org.mpris.MediaPlayer2.Player", member: "PlayPause"))
        try await service.waitForState("recording")
        try await service.recorder(.discard)
    }

    /// What must never answer a sandboxed app without its permission: the recorder's commands and state, the live
    /// words, the memo list, the library.
    private static let notulaCalls: [(ObjectPath, InterfaceName?, MemberName, [Value])] = [
        (NotulaBus.recorderPath, NotulaBus.recorderInterface, "Toggle", []),
        (NotulaBus.recorderPath, NotulaBus.recorderInterface, "Discard", []),
        (NotulaBus.recorderPath, nil, "Toggle", []),
        (NotulaBus.recorderPath, NotulaBus.recorderInterface, "WatchText", []),
        (NotulaBus.recorderPath, "org.freedesktop.DBus.Properties", "Get", [.string(NotulaBus.recorderInterface.rawValue), .string("State")]),
        (NotulaBus.recorderPath, "org.freedesktop.DBus.Properties", "GetAll", [.string(NotulaBus.recorderInterface.rawValue)]),
        (NotulaBus.recorderPath, "org.freedesktop.DBus.Introspectable", "Introspect", []),
        (ObjectPath("/org/notula")!, "org.freedesktop.DBus.Introspectable", "Introspect", []),
        (NotulaBus.rootPath, "org.freedesktop.DBus.ObjectManager", "GetManagedObjects", []),
        (NotulaBus.libraryPath, "org.freedesktop.DBus.Properties", "GetAll", [.string(NotulaBus.libraryInterface.rawValue)]),
        (NotulaBus.modelsPath, "org.freedesktop.DBus.Properties", "GetAll", [.string(NotulaBus.modelsInterface.rawValue)]),
    ]
}
