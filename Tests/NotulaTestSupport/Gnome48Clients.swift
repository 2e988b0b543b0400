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

    /// Starts answering the next "Remote Desktop" dialog with `choice`, whenever it shows.
    public func answerRemoteDesktopDialog(_ choice: RemoteDesktopAnswer.Choice) throws -> RemoteDesktopAnswer {
        try RemoteDesktopAnswer(choice, script: helpers.appendingPathComponent("answer-remote-desktop.py"), in: self)
    }
}
