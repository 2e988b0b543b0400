import DBus
import Recording

extension ErrorName {
    static let notSupported: ErrorName = "org.freedesktop.DBus.Error.NotSupported"
}

/// `org.mpris.MediaPlayer2` and `org.mpris.MediaPlayer2.Player` (MPRIS 2.2) for the recording or the memo playing:
/// what media keys, lock screens and the desktop's media controls read and call. What the player cannot do now
/// (seek a recording, skip, open files) its `Can…` properties say, and those methods do nothing, as the
/// specification has it.
enum MediaPlayerInterfaces {
    static let rootInterface: InterfaceName = "org.mpris.MediaPlayer2"
    static let playerInterface: InterfaceName = "org.mpris.MediaPlayer2.Player"

    static func root() -> Interface {
        Interface(
            rootInterface,
            methods: [
                // CanRaise and CanQuit are false: Notula has no window, and the service outlives its player.
                Method("Raise") { _ in .now([]) },
                Method("Quit") { _ in .now([]) },
            ],
            properties: [
                Property("CanQuit", "b", emitsChanged: .const) { .boolean(false) },
                Property("CanRaise", "b", emitsChanged: .const) { .boolean(false) },
                Property("HasTrackList", "b", emitsChanged: .const) { .boolean(false) },
                Property("Identity", "s", emitsChanged: .const) { .string("Notula") },
                Property("DesktopEntry", "s", emitsChanged: .const) { .string("org.notula.Notula") },
                Property("SupportedUriSchemes", "as", emitsChanged: .const) { .array(element: "s", []) },
                Property("SupportedMimeTypes", "as", emitsChanged: .const) { .array(element: "s", []) },
            ])
    }

    static func player(_ player: MediaPlayer) -> Interface {
        func constant(_ name: MemberName, _ value: Value) -> Property {
            Property(name, value.signature, emitsChanged: .const) { value }
        }
        let buttons = MediaButton.allCases.map { button in
            Method(button.member) { _ throws(BusError) in
                try player.assumeIsolated { player in Result { () throws(BusError) in try player.press(button) } }.get()
                return .now([])
            }
        }
        return Interface(
            playerInterface,
            methods: buttons + [
                Method("Next") { _ in .now([]) },
                Method("Previous") { _ in .now([]) },
                Method("Seek", inputs: [Argument("Offset", "x")]) { message throws(BusError) in
                    let offset: Int64 = try message.argument(0)
                    player.assumeIsolated { $0.seek(by: offset) }
                    return .now([])
                },
                Method("SetPosition", inputs: [Argument("TrackId", "o"), Argument("Position", "x")]) { message throws(BusError) in
                    let (track, position): (ObjectPath, Int64) = (try message.argument(0), try message.argument(1))
                    player.assumeIsolated { $0.setPosition(position, of: track) }
                    return .now([])
                },
                Method("OpenUri", inputs: [Argument("Uri", "s")]) { _ throws(BusError) in
                    throw BusError(.notSupported, "Notula records; it opens no URIs")
                },
            ],
            properties: [
                Property("PlaybackStatus", "s") { .string(player.assumeIsolated { $0.playbackStatus.rawValue }) },
                Property("Metadata", "a{sv}") { player.assumeIsolated { $0.metadata } },
                // The time recorded, or played: changing all the time, so read when wanted, as the specification has it.
                Property("Position", "x", emitsChanged: .false) { .int64(player.assumeIsolated { $0.position() }.microseconds) },
                constant("Rate", .double(1)),
                constant("MinimumRate", .double(1)),
                constant("MaximumRate", .double(1)),
                constant("Volume", .double(1)),
                constant("CanGoNext", .boolean(false)),
                constant("CanGoPrevious", .boolean(false)),
                constant("CanPlay", .boolean(true)),
                constant("CanPause", .boolean(true)),
                // A memo seeks; a recording cannot.
                Property("CanSeek", "b") { .boolean(player.assumeIsolated { $0.memoShown != nil }) },
                constant("CanControl", .boolean(true)),
            ],
            signals: [SignalDeclaration("Seeked", [Argument("Position", "x")])])
    }
}
