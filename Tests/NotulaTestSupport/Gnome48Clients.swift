import DBus
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

    /// Puts an image alone on the clipboard, as a user copying one in some window would: no text to read back.
    public func setClipboardImage(_ png: Data) async throws {
        let script = "imports.gi.St.Clipboard.get_default().set_content(imports.gi.St.ClipboardType.CLIPBOARD, 'image/png', "
            + "new imports.gi.GLib.Bytes([\(png.map(String.init).joined(separator: ","))])); true"
        guard try await evaluate(script) == "true" else { throw CommandFailed(command: ["gnome-shell"], status: 0, errorOutput: script) }
    }

    /// Starts answering the next "Remote Desktop" dialog with `choice`, whenever it shows.
    public func answerRemoteDesktopDialog(_ choice: DialogAnswer.Choice) throws -> DialogAnswer {
        try DialogAnswer(choice, script: helpers.appendingPathComponent("answer-dialog.py"), in: self)
    }

    /// Starts answering the next "Add Keyboard Shortcuts" dialog (GlobalShortcuts' `BindShortcuts`), whenever it shows.
    public func answerShortcutsDialog(_ choice: DialogAnswer.Choice) throws -> DialogAnswer {
        try DialogAnswer(
            choice, script: helpers.appendingPathComponent("answer-dialog.py"), in: self,
            dialog: ("gnome-control-center-global-shortcuts-provider", "Add"))
    }

    /// Installs Notula's `.desktop` file, as `make install` does, where the session's portal looks for it: GNOME 48
    /// binds global shortcuts only for a host app whose registered app id names one.
    /// - Returns: the file, for the test to remove: with it, every notulad on this Shell would bind its shortcuts.
    public func installNotulaDesktopFile() async throws -> URL {
        let folder = home.appendingPathComponent(".local/share/applications")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let template = try String(contentsOf: packageRoot.appendingPathComponent("desktop/org.notula.Notula.desktop.in"), encoding: .utf8)
        let file = folder.appendingPathComponent("org.notula.Notula.desktop")
        // GLib refuses a `.desktop` file whose program is missing: `notula`, where the file says, in the folder the root shares.
        let bindir = logFolder.appendingPathComponent("bin")
        if !FileManager.default.fileExists(atPath: bindir.appendingPathComponent("notula").path) {
            try FileManager.default.createDirectory(at: bindir, withIntermediateDirectories: true)
            try FileManager.default.copyItem(
                at: binaryDirectory.appendingPathComponent("notula"), to: bindir.appendingPathComponent("notula"))
        }
        try Data(template.replacingOccurrences(of: "@bindir@", with: bindir.path).utf8).write(to: file)
        // The portal notices a new file in its own time: asked from a throwaway connection until it knows the app.
        try await poll(within: .seconds(30)) {
            let probe = try await connect()
            defer { Task { await probe.close() } }
            let registered = try? await probe.call(
                MethodCall(
                    destination: Self.portalName, path: ObjectPath("/org/freedesktop/portal/desktop")!,
                    interface: "org.freedesktop.host.portal.Registry", member: "Register",
                    arguments: [.string("org.notula.Notula"), [String: Variant]().dbusValue]))
            return registered != nil
        } otherwise: {
            CommandFailed(
                command: ["xdg-desktop-portal"], status: 0, errorOutput: "never found org.notula.Notula.desktop in \(folder.path)")
        }
        return file
    }
}
