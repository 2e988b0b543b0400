import Foundation

extension Gnome48Host {
    /// Opens a GTK4 typing target (trixie's GTK 4.18, in the root) and returns once its window has the keyboard focus.
    public func openTypingTarget() async throws -> TypingTarget {
        try await TypingTarget(client: helpers.appendingPathComponent("typing-target.py"), in: self) { title in
            try await self.evaluate("global.display.focus_window?.get_title() === \"\(title)\"") == "true"
        }
    }

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
    public func answerRemoteDesktopDialog(_ choice: RemoteDesktopAnswer.Choice) throws -> RemoteDesktopAnswer {
        try RemoteDesktopAnswer(choice, script: helpers.appendingPathComponent("answer-remote-desktop.py"), in: self)
    }
}
