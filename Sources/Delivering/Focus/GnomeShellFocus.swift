import DBus
import NotulaContract

/// Asks GNOME Shell, through Notula's extension, which window has the focus: `Describe` of
/// `org.notula.Notula1.FocusedWindow`, which the extension exports on the Shell's own connection. The call goes to
/// `org.gnome.Shell`, which the bus delivers to that name's current owner only, and only that owner's reply is let
/// through to notulad: no other program can describe the focus in the Shell's place.
enum GnomeShellFocus {
    static let shell: BusName = "org.gnome.Shell"
    static let path = NotulaBus.focusedWindowPath
    static let interface = NotulaBus.FocusedWindow.name

    /// The focused window, or nil where the extension is not enabled (no such object) or did not answer in `timeLimit`.
    static func focusedWindow(on bus: Bus, timeLimit: Duration) async -> FocusedWindow? {
        let describe = MethodCall(destination: shell, path: path, interface: interface, member: NotulaBus.FocusedWindow.Method.describe.rawValue, autoStart: false)
        guard let reply = try? await bus.call(describe, timeout: timeLimit),
            let processID = try? reply.argument(0, as: UInt32.self),
            let wmClass = try? reply.argument(1, as: String.self),
            let appID = try? reply.argument(2, as: String.self)
        else { return nil }
        return FocusedWindow(
            processID: processID > 0 && processID <= UInt32(Int32.max) ? Int32(processID) : nil,
            appIDs: [appID, wmClass].filter { !$0.isEmpty })
    }
}
