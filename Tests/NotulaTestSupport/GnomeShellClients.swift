import Foundation

/// A GTK4 window with one text entry, focused on the GNOME Shell host: what the user would be typing into. Its
/// text is read from the file it writes at every change. Killed when the value goes.
public final class TypingTarget {
    private let file: URL
    private let process: Process

    fileprivate init(on host: GnomeShellHost) async throws {
        let title = "notula-typing-\(UUID().uuidString)"
        file = host.home.appendingPathComponent("\(title).txt")
        process = try host.sessionProcess(
            ["/usr/bin/python3", GnomeShellHost.helpers.appendingPathComponent("typing-target.py").path, file.path, title], log: title)
        try process.run()
        let focused = "global.display.focus_window !== null && global.display.focus_window.get_title() === \"\(title)\""
        try await poll(within: .seconds(30)) {
            guard process.isRunning else { throw PeerExited(command: "typing-target.py", status: process.terminationStatus) }
            return try await host.evaluate(focused) == "true" && FileManager.default.fileExists(atPath: file.path)
        } otherwise: {
            CommandFailed(command: ["typing-target.py"], status: 0, errorOutput: "its window never got the keyboard focus")
        }
    }

    deinit { kill(process) }

    /// The entry's text as of now.
    public var text: String { (try? String(contentsOf: file, encoding: .utf8)) ?? "" }

    /// Returns once the entry holds exactly `expected`; throws, saying what it holds, when it does not come to.
    public func waitForText(_ expected: String) async throws {
        try await poll(within: .seconds(20)) {
            text == expected
        } otherwise: {
            CommandFailed(command: ["typing-target.py"], status: 0, errorOutput: "expected [\(expected)], the entry holds [\(text)]")
        }
    }
}

/// The user answering xdg-desktop-portal-gnome's "Remote desktop" dialog, through AT-SPI, as the session's user.
public final class RemoteDesktopAnswer {
    public enum Choice: String { case allow, cancel }

    private let process: Process
    private let exited: AsyncStream<Int32>

    fileprivate init(_ choice: Choice, on host: GnomeShellHost) throws {
        process = try host.sessionProcess(
            ["/usr/bin/python3", GnomeShellHost.helpers.appendingPathComponent("answer-remote-desktop.py").path, choice.rawValue, "60"],
            log: "answer-\(choice.rawValue)")
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
            guard status == 0 else { throw CommandFailed(command: ["answer-remote-desktop.py"], status: status, errorOutput: "") }
            return
        }
    }
}

extension GnomeShellHost {
    /// Opens a typing target and returns once its window has the keyboard focus.
    public func openTypingTarget() async throws -> TypingTarget { try await TypingTarget(on: self) }

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
    public func answerRemoteDesktopDialog(_ choice: RemoteDesktopAnswer.Choice) throws -> RemoteDesktopAnswer {
        try RemoteDesktopAnswer(choice, on: self)
    }
}
