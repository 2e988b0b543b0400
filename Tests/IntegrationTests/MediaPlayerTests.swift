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
    fileprivate func busctl(_ arguments: String...) throws -> CommandResult { try busctl(arguments) }

    @discardableResult
    fileprivate func busctl(_ arguments: [String]) throws -> CommandResult {
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

    /// Calls a method of the player with busctl, which must answer it; `--` lets a negative number through.
    fileprivate func callPlayer(_ member: String, _ arguments: String...) throws {
        let result = try busctl(["call", "--", Player.name.rawValue, Player.path, Player.interface, member] + arguments)
        #expect(result.status == 0, "\(member) \(arguments): \(result.errorOutput)")
    }

    /// The player's `Position`, in microseconds.
    fileprivate func playerPosition() throws -> Int64 {
        let printed = try playerProperty("Position")
        return try #require(Int64(printed.dropFirst(2)), "\(printed)")
    }
}

/// The player's signals, read in order: none may carry the memo's title, which holds words said.
private struct PlayerSignals {
    var signals: AsyncStream<Message>.Iterator
    let title: String

    /// Returns once the player announces `status` as its PlaybackStatus.
    mutating func until(status: String) async throws {
        while true {
            // Seeked has no second argument; PropertiesChanged has the changed properties there.
            let signal = try await next()
            guard let changed = try? signal.argument(1, as: [String: Variant].self) else { continue }
            if try changed["PlaybackStatus"]?.get(String.self) == status { return }
        }
    }

    /// The position the next `Seeked` announces.
    mutating func nextSeeked() async throws -> Int64 {
        while true {
            let signal = try await next()
            if signal.member == "Seeked" { return try signal.argument(0, as: Int64.self) }
        }
    }

    private mutating func next() async throws -> Message {
        let signal = try #require(await signals.next())
        #expect(!"\(signal.body)".contains(title), "a signal carried the memo's title: \(signal.body)")
        return signal
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

@Suite("MPRIS: the recording, or the memo playing, as a media player, opt-in", .serialized)
struct MediaPlayerTests {
    @Test func offUnlessTheSettingsTurnItOn() async throws {
        let service = try await ServiceUnderTest.start()
        try await service.recorder(.toggle)
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

    @Test(.timeLimit(.minutes(3)))
    func aMemoPlayingIsTheTrackTitledByItsDateAndItsControlsHoldSeekAndStopIt() async throws {
        let bus = try PrivateBus()
        let watching = try await bus.connect()
        var owners = try await ownerChanges(on: watching)
        let speaker = try await NullSink()
        let (service, memo) = try await serviceWithSpokenMemo(speaker: speaker, settings: [#""mpris": true"#], on: bus)
        #expect(try await nextOwnerIsPresent(&owners), "owned while the memo was recorded")
        #expect(try await nextOwnerIsPresent(&owners) == false, "and released once it was sent")
        // A title of words said, as a transcribed memo has: the player must not broadcast it.
        let title = "Words said in confidence"
        _ = try await service.call(
            memo, "org.freedesktop.DBus.Properties", "Set",
            [.string(NotulaBus.memoInterface.rawValue), .string("Title"), .variant(.string(title))])
        #expect(try await service.property(.title, of: memo) == .string(title))
        var signals = PlayerSignals(
            // Every signal of the player's object: its name is notulad's, on a connection of its own.
            signals: try await service.client.signals(matching: MatchRule(sender: Player.name, path: ObjectPath(Player.path)!))
                .makeAsyncIterator(),
            title: title)
        let heard = try SinkRecording(speaker)

        _ = try await service.memo(.play, of: memo)
        #expect(try await nextOwnerIsPresent(&owners), "a memo playing owns the name")
        // Its first Playing went out before the name was owned, as a client that sees the name come reads it.
        try await poll(within: .seconds(5), until: { try service.playerProperty("PlaybackStatus") == #"s "Playing""# }) { MissingOutput() }
        try service.callPlayer("PlayPause")
        try await signals.until(status: "Paused")
        #expect(try await service.property(.playbackState) == .string("paused"), "PlayPause held the memo")
        #expect(try service.playerProperty("PlaybackStatus") == #"s "Paused""#)
        #expect(try service.playerProperty("CanSeek") == "b true")
        let metadata = try service.playerMetadata()
        #expect(metadata.contains("'mpris:trackid': <objectpath '\(memo.rawValue)'>"), "\(metadata)")
        #expect(metadata.contains(try Regex(#"'xesam:title': <'Memo \d{4}-\d\d-\d\d \d\d:\d\d'>"#)), "\(metadata)")
        #expect(!metadata.contains(title))
        let printedLength = try #require(metadata.firstMatch(of: try Regex(#"'mpris:length': <int64 (\d+)>"#))?.output[1].substring)
        let length = try #require(Int64(printedLength))
        guard case .double(let seconds) = try await service.property(.duration, of: memo) else { throw MissingOutput() }
        #expect(abs(Double(length) - seconds * 1_000_000) <= 1, "\(length) µs for \(seconds) s")
        #expect(length > 1_500_000, "the seeks below need a memo of 1.5 s or more")

        // A quarter second of the sink's clock for the hold to reach the speakers, then half a second held there.
        try await heard.waitUntilHeard(samples: try heard.samples().count + 4_000)
        let held = try service.playerPosition()
        try await heard.waitUntilHeard(samples: try heard.samples().count + 8_000)
        #expect(try service.playerPosition() == held, "Position moved while paused")

        try service.callPlayer("SetPosition", "ox", "/org/notula/Notula1/Memos/1", "1000000")
        try service.callPlayer("SetPosition", "ox", memo.rawValue, "-1")
        try service.callPlayer("SetPosition", "ox", memo.rawValue, "500000")
        #expect(try await signals.nextSeeked() == 500_000, "a stale track or a position before the start is ignored")
        #expect(try service.playerPosition() == 500_000)
        try service.callPlayer("Seek", "x", "1000000")
        #expect(try await signals.nextSeeked() == 1_500_000)
        #expect(try service.playerPosition() == 1_500_000)
        try service.callPlayer("Seek", "x", String(Int64.min))
        #expect(try await signals.nextSeeked() == 0, "before the start is the start")
        try service.callPlayer("Seek", "x", String(Int64.max))
        #expect(try await signals.nextSeeked() == length, "past the end is the end")
        #expect(abs(try service.playerPosition() - length) < 1_000)
        try service.callPlayer("SetPosition", "ox", memo.rawValue, String(length + 1))
        try service.callPlayer("SetPosition", "ox", memo.rawValue, "0")
        #expect(try await signals.nextSeeked() == 0, "a position past the end is ignored")

        try service.callPlayer("Play")
        try await signals.until(status: "Playing")
        try await poll(within: .seconds(5), until: { try service.playerPosition() > 0 }) { MissingOutput() }
        try service.callPlayer("Pause")
        try await signals.until(status: "Paused")

        // A recording under way comes first, and the memo is the track again once it is gone.
        try await service.recorder(.start)
        try await signals.until(status: "Playing")
        #expect(try service.playerMetadata().contains("'xesam:title': <'Recording — 0:0"))
        #expect(try service.playerProperty("CanSeek") == "b false")
        try await service.recorder(.discard)
        try await signals.until(status: "Paused")
        #expect(try service.playerMetadata().contains("'mpris:trackid': <objectpath '\(memo.rawValue)'>"))

        try service.callPlayer("Stop")
        #expect(try await nextOwnerIsPresent(&owners) == false, "released once the memo stopped")
        #expect(try await service.property(.playing) == .objectPath(.root))
        await watching.close()
    }
}
