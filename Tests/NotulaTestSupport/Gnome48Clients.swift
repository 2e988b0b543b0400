import Foundation

/// A GTK4 window (trixie's GTK 4.18, in the root) with one text entry, focused on the GNOME Shell 48 host: what the
/// user would be typing into. Its text, and how many times it changed, are read from the files it writes at every
/// change. Killed when the value goes.
public final class Gnome48TypingTarget {
    private let file: URL
    private let process: Process

    fileprivate init(on host: Gnome48Host) async throws {
        let title = "notula-typing-\(UUID().uuidString)"
        file = host.home.appendingPathComponent("\(title).txt")
        process = try host.sessionProcess(
            ["/usr/bin/python3", host.helpers.appendingPathComponent("typing-target.py").path, file.path, title], log: title)
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

    /// How many times the entry's text changed so far: a paste is one change, typing one per character.
    public var changes: Int {
        (try? String(contentsOf: file.appendingPathExtension("changes"), encoding: .utf8)).flatMap { Int($0) } ?? 0
    }

    /// Returns once the entry holds exactly `expected`; throws, saying what it holds, when it does not come to.
    public func waitForText(_ expected: String) async throws {
        try await poll(within: .seconds(20)) {
            text == expected
        } otherwise: {
            CommandFailed(command: ["typing-target.py"], status: 0, errorOutput: "expected [\(expected)], the entry holds [\(text)]")
        }
    }
}

/// The user answering GNOME 48's "Remote Desktop" dialog, through AT-SPI, as the session's user in the root.
public final class Gnome48RemoteDesktopAnswer {
    private let process: Process
    private let exited: AsyncStream<Int32>

    fileprivate init(_ choice: RemoteDesktopAnswer.Choice, on host: Gnome48Host) throws {
        process = try host.sessionProcess(
            ["/usr/bin/python3", host.helpers.appendingPathComponent("answer-remote-desktop.py").path, choice.rawValue, "60"],
            log: "answer-\(choice.rawValue)-\(UUID().uuidString)")
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

extension Gnome48Host {
    /// Opens a typing target and returns once its window has the keyboard focus.
    public func openTypingTarget() async throws -> Gnome48TypingTarget { try await Gnome48TypingTarget(on: self) }

    /// Returns once no window has the keyboard focus (a typing target gone, say).
    public func waitUntilNothingHasTheFocus() async throws {
        try await poll(within: .seconds(10)) {
            try await evaluate("global.display.focus_window === null") == "true"
        } otherwise: {
            CommandFailed(command: ["gnome-shell"], status: 0, errorOutput: "a window kept the focus")
        }
    }

    /// Puts `text` on the clipboard, as a user copying it in some window would (the Shell owns it then).
    public func setClipboardText(_ text: String) async throws {
        let literal = String(decoding: try JSONEncoder().encode(text), as: UTF8.self)
        let script = "imports.gi.St.Clipboard.get_default().set_text(imports.gi.St.ClipboardType.CLIPBOARD, \(literal)); true"
        guard try await evaluate(script) == "true" else { throw CommandFailed(command: ["gnome-shell"], status: 0, errorOutput: script) }
        try await poll(within: .seconds(10)) {
            try await clipboardText() == text
        } otherwise: {
            CommandFailed(command: ["gnome-shell"], status: 0, errorOutput: "the clipboard never held [\(text)]")
        }
    }

    /// The text on the Shell's clipboard (what Ctrl+V would paste), asked of the Shell itself; nil when it holds none.
    public func clipboardText() async throws -> String? {
        let asked =
            "global._notulaClipboard = undefined; imports.gi.St.Clipboard.get_default()"
            + ".get_text(imports.gi.St.ClipboardType.CLIPBOARD, (_, text) => { global._notulaClipboard = text ?? null; }); true"
        guard try await evaluate(asked) == "true" else { throw CommandFailed(command: ["gnome-shell"], status: 0, errorOutput: asked) }
        var answer: String?
        try await poll(within: .seconds(10)) {
            answer = try await evaluate("global._notulaClipboard === undefined ? 'waiting' : JSON.stringify(global._notulaClipboard)")
            return answer != "\"waiting\""
        } otherwise: {
            CommandFailed(command: ["gnome-shell"], status: 0, errorOutput: "the Shell never read its clipboard")
        }
        // Eval answers JSON: the JSON of the JSON string, or of null.
        guard let answer, let json = try JSONSerialization.jsonObject(with: Data(answer.utf8), options: .fragmentsAllowed) as? String else {
            return nil
        }
        return try JSONSerialization.jsonObject(with: Data(json.utf8), options: .fragmentsAllowed) as? String
    }

    /// Starts answering the next "Remote Desktop" dialog with `choice`, whenever it shows.
    public func answerRemoteDesktopDialog(_ choice: RemoteDesktopAnswer.Choice) throws -> Gnome48RemoteDesktopAnswer {
        try Gnome48RemoteDesktopAnswer(choice, on: self)
    }
}
