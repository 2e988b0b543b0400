import Foundation

extension GnomeShellHost {
    /// Opens GNOME's terminal running a `CommandLineShell`, as a user starts it: `gnome-terminal` has the bus activate
    /// `gnome-terminal-server`, whose window the Shell then focuses. Returns once that window has the keyboard focus and
    /// the shell reads its first line.
    public func openTerminalShell() async throws -> CommandLineShell {
        let title = "notula-shell-\(UUID().uuidString.prefix(8))"
        let folder = home.appendingPathComponent(title)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false)
        let shell = try CommandLineShell(folder: folder.path)
        try session.giveToUser(folder)
        let opened = try session.runAsUser(["/usr/bin/gnome-terminal", "--title", title, "--"] + shell.command)
        guard opened.status == 0 else {
            throw CommandFailed(command: ["gnome-terminal"], status: opened.status, errorOutput: opened.errorOutput)
        }
        try await poll(within: .seconds(30)) {
            guard FileManager.default.fileExists(atPath: shell.readyFile) else { return false }
            return try await evaluate("global.display.focus_window?.get_title() === \(javaScriptString(title))") == "true"
        } otherwise: {
            CommandFailed(command: ["gnome-terminal"], status: 0, errorOutput: "its window \(title) never had the focus with bash ready")
        }
        return shell
    }
}
