import DBus
import Foundation
import NotulaContract
import NotulaTestSupport
import Testing

/// The MPRIS player's name and objects.
private enum Player {
    static let name: BusName = "org.mpris.MediaPlayer2.notula"
    static let path = "/org/mpris/MediaPlayer2"
    static let interface = "org.mpris.MediaPlayer2.Player"
}

extension ServiceUnderTest {
    /// busctl, as a media key daemon or a shell's media controls would call the player; what it printed.
    @discardableResult
    fileprivate func busctl(_ arguments: String...) throws -> CommandResult {
        try run("/usr/bin/busctl", ["--user"] + arguments, environment: environment)
    }

    /// The player's `Metadata` as gdbus prints it (busctl escapes what is not ASCII, such as the title's dash).
    fileprivate func playerMetadata() throws -> String {
        try run(
            "/usr/bin/gdbus",
            [
                "call", "--session", "--dest", Player.name.rawValue, "--object-path", Player.path, "--method",
                "org.freedesktop.DBus.Properties.Get", Player.interface, "Metadata",
            ], environment: environment
        ).output
    }

    fileprivate func playerProperty(_ name: String, of interface: String = Player.interface) throws -> String {
        try busctl("get-property", Player.name.rawValue, Player.path, interface, name).output
            .trimmingCharacters(in: .whitespacesAndNewlines)
    }
}

/// Whether the player's name has an owner, at each change from now on.
private func ownerChanges(on client: Bus) async throws -> AsyncStream<Message>.Iterator {
    try await client.signals(
        matching: MatchRule(
            sender: "org.freedesktop.DBus", interface: "org.freedesktop.DBus", member: "NameOwnerChanged", arg0: Player.name.rawValue)
    ).makeAsyncIterator()
}

private func nextOwnerIsPresent(_ changes: inout AsyncStream<Message>.Iterator) async throws -> Bool {
    let change = try #require(await changes.next())
    return try !change.argument(2, as: String.self).isEmpty
}

@Suite("MPRIS: the recording as a media player, opt-in", .serialized)
struct MediaPlayerTests {
    @Test func offUnlessTheSettingsTurnItOn() async throws {
        let service = try await ServiceUnderTest.start()
        try await service.recorder(.toggle)
        await #expect(throws: BusError(.unknownObject, "No object at path /org/mpris/MediaPlayer2")) {
            _ = try await service.property("PlaybackStatus", of: ObjectPath(Player.path)!, interface: "org.mpris.MediaPlayer2.Player")
        }
        #expect(try await service.client.owner(of: Player.name) == nil)
        try await service.recorder(.discard)
    }

    @Test func ownsItsNameWhileARecordingIsUnderWayAndItsControlsDriveTheRecorder() async throws {
        let bus = try PrivateBus()
        let watching = try await bus.connect()
        var owners = try await ownerChanges(on: watching)
        let service = try await ServiceUnderTest.start(settings: [#""mpris": true"#], on: bus)
        var states = try await service.recorderSignals().makeAsyncIterator()
        #expect(try await service.client.owner(of: Player.name) == nil, "no recording, no player: the media keys stay with music")

        try await service.recorder(.toggle)
        #expect(try await nextOwnerIsPresent(&owners))
        #expect(try service.playerProperty("PlaybackStatus") == #"s "Playing""#)
        #expect(try service.playerProperty("Identity", of: "org.mpris.MediaPlayer2") == #"s "Notula""#)
        #expect(try service.playerProperty("DesktopEntry", of: "org.mpris.MediaPlayer2") == #"s "org.notula.Notula""#)
        #expect(try service.playerProperty("CanQuit", of: "org.mpris.MediaPlayer2") == "b false")
        #expect(try service.playerProperty("CanSeek") == "b false")
        #expect(try service.playerProperty("CanGoNext") == "b false")
        #expect(try service.playerProperty("CanControl") == "b true")
        #expect(try service.playerProperty("Rate") == "d 1")
        let metadata = try service.playerMetadata()
        #expect(metadata.contains("'xesam:title': <'Recording — 0:0"), "\(metadata)")
        #expect(metadata.contains("'mpris:trackid': <objectpath '/org/notula/Notula1/Memos/"), "\(metadata)")

        try service.busctl("call", Player.name.rawValue, Player.path, Player.interface, "PlayPause")
        #expect(try await NotulaTestSupport.states(until: "paused", in: &states) == ["recording", "paused"])
        #expect(try service.playerProperty("PlaybackStatus") == #"s "Paused""#)
        #expect(try service.playerMetadata().contains("'xesam:title': <'Paused — 0:0"))

        // Seeking and skipping do nothing, as CanSeek and CanGoNext say; opening a URI is refused by name.
        try service.busctl("call", Player.name.rawValue, Player.path, Player.interface, "Seek", "x", "5000000")
        try service.busctl("call", Player.name.rawValue, Player.path, Player.interface, "Next")
        let open = try service.busctl("call", Player.name.rawValue, Player.path, Player.interface, "OpenUri", "s", "file:///a.ogg")
        #expect(open.status != 0 && open.errorOutput.contains("opens no URIs"), "\(open.errorOutput)")
        #expect(try await service.property(.state) == .string("paused"))

        try service.busctl("call", Player.name.rawValue, Player.path, Player.interface, "Play")
        #expect(try await NotulaTestSupport.states(until: "recording", in: &states) == ["recording"])
        try service.busctl("call", Player.name.rawValue, Player.path, Player.interface, "Stop")
        #expect(try await NotulaTestSupport.states(until: "idle", in: &states) == ["processing", "idle"])
        #expect(try await nextOwnerIsPresent(&owners) == false, "released once the recording is sent")
        await watching.close()
    }
}
