import DBus
import Foundation

/// The user answering xdg-desktop-portal-gnome's remote-desktop dialog, through AT-SPI, as the session's user: with
/// the answering script of the Shell's version (43's dialog and 48's differ).
public final class DialogAnswer {
    public enum Choice: String { case allow, cancel }

    private let process: Process
    private let exited: AsyncStream<Int32>

    /// - Parameter dialog: the application showing it and its confirming button; nil: the RemoteDesktop portal's Share.
    init(_ choice: Choice, script: URL, in session: any SessionProcesses, dialog: (application: String, confirm: String)? = nil) throws {
        let naming = dialog.map { [$0.application, $0.confirm] } ?? []
        process = try session.sessionProcess(
            ["/usr/bin/python3", script.path, choice.rawValue, "60"] + naming, log: "answer-\(choice.rawValue)-\(UUID().uuidString)")
        let (exited, status) = AsyncStream.makeStream(of: Int32.self)
        self.exited = exited
        process.terminationHandler = { status.yield($0.terminationStatus) }
        try process.run()
    }

    deinit { kill(process) }

    /// Returns once the dialog was answered.
    /// - Throws: `CommandFailed` when no dialog came (see the host's `answer-*.log`).
    public func answered() async throws {
        for await status in exited {
            guard status == 0 else { throw CommandFailed(command: ["answer-dialog.py"], status: status, errorOutput: "") }
            return
        }
    }
}

extension GnomeShellHost {
    /// Opens a GTK4 typing target and returns once its window has the keyboard focus.
    public func openTypingTarget() async throws -> TypingTarget {
        try await TypingTarget(.gtk4, in: session) { title in
            try await self.evaluate("global.display.focus_window?.get_title() === \"\(title)\"") == "true"
        }
    }

    /// Stops every remote-control session, as the user does by clicking the screen-sharing indicator in the top bar.
    /// - Returns: how many it stopped.
    public func stopRemoteControl() async throws -> Int {
        let script = "const s = Main.panel.statusArea.screenSharing; const n = s._handles.size; s._stopSharing(); n"
        return try await evaluate(script).flatMap { Int($0) } ?? 0
    }

    /// Returns once no window titled `title` is on the screen (the portal's dialog is "Remote desktop").
    public func waitUntilGone(windowTitled title: String) async throws {
        let escaped = title.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
        let shown = "global.get_window_actors().some(a => a.meta_window.get_title() === \"\(escaped)\")"
        try await poll(within: .seconds(10)) {
            try await evaluate(shown) == "false"
        } otherwise: {
            CommandFailed(command: ["gnome-shell"], status: 0, errorOutput: "the window \(title) stayed")
        }
    }

    /// Starts answering the next "Remote desktop" dialog with `choice`, whenever it shows.
    public func answerRemoteDesktopDialog(_ choice: DialogAnswer.Choice) throws -> DialogAnswer {
        try DialogAnswer(choice, script: Self.helpers.appendingPathComponent("answer-dialog.py"), in: session)
    }
}

/// A GNOME Shell whose RemoteDesktop portal asks the user: 43 on this machine, 48 in its root.
public protocol GnomeDesktop: Sendable {
    func connect() async throws -> Bus
    func openTypingTarget() async throws -> TypingTarget
    func answerRemoteDesktopDialog(_ choice: DialogAnswer.Choice) throws -> DialogAnswer
}

extension GnomeShellHost: GnomeDesktop {}
extension Gnome48Host: GnomeDesktop {}
