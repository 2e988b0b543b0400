import Foundation
import Synchronization

/// An Xvfb display whose windows are xterms that write what is typed into them to a file: a real X11 text client
/// for typing tests. With no window manager, the test gives each new terminal the focus itself. Meant to be started
/// once for a suite (a test scoping trait does it); Xvfb and the terminals are killed when it goes.
public final class TerminalsUnderXvfb: Sendable {
    /// The host of the suite being run, set by the suite's trait.
    @TaskLocal public static var current: TerminalsUnderXvfb?

    /// What an X client needs to reach this display.
    public let environment: [String: String]
    /// Where the terminals write.
    private let folder: String
    /// Xvfb and the terminals, by process ID, to be killed at the end.
    private let children = Mutex<[pid_t]>([])
    private let terminalsOpened = Mutex(0)

    public init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("notula-xvfb-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let xvfb = Process()
        xvfb.executableURL = URL(fileURLWithPath: "/usr/bin/Xvfb")
        // -displayfd: Xvfb picks a free display and prints its number once it accepts connections.
        xvfb.arguments = ["-displayfd", "1", "-screen", "0", "1280x800x24", "-nolisten", "tcp"]
        let output = Pipe()
        xvfb.standardOutput = output
        xvfb.standardError = FileHandle.nullDevice
        try xvfb.run()
        children.withLock { $0.append(xvfb.processIdentifier) }
        environment = ["DISPLAY": ":" + (try readLine(from: output.fileHandleForReading))]
    }

    deinit {
        // SIGKILL: a child of the test runner may inherit a mask that blocks SIGTERM.
        for child in children.withLock({ $0 }).reversed() { kill(child, SIGKILL) }
        try? FileManager.default.removeItem(atPath: folder)
    }

    /// A terminal that writes every character typed into it, as typed, to `file`: its tty raw (no line editing, no
    /// echo, no signals), except that Return arrives as a newline.
    public struct Terminal: Sendable {
        public let title: String
        public let window: String
        public let file: String

        /// What has been typed into it so far.
        public func typed() -> String { (try? String(contentsOfFile: file, encoding: .utf8)) ?? "" }
    }

    /// Opens a terminal and returns once it has the keyboard focus, ready to be typed into.
    /// - Parameter resources: X resources for it (`-xrm`), as a user's `~/.Xresources` would set them.
    public func openTerminal(resources: [String] = []) async throws -> Terminal {
        let title = "notula-terminal-\(terminalsOpened.withLock { $0 += 1; return $0 })"
        let file = "\(folder)/\(title).txt"
        let xterm = Process()
        xterm.executableURL = URL(fileURLWithPath: "/usr/bin/xterm")
        // The shell makes the file only after stty has made the tty raw: once it exists, no key is cooked.
        xterm.arguments =
            resources.flatMap { ["-xrm", $0] } + [
                "-T", title, "-geometry", "80x24+0+0", "-e", "sh", "-c", "stty raw -echo icrnl; exec cat > \(file)",
            ]
        // A UTF-8 locale: xterm passes on what it receives as UTF-8 only in one.
        xterm.environment = environment.merging(["LC_ALL": "C.UTF-8", "PATH": "/usr/bin:/bin"]) { $1 }
        xterm.standardOutput = FileHandle.nullDevice
        xterm.standardError = FileHandle.nullDevice
        try xterm.run()
        children.withLock { $0.append(xterm.processIdentifier) }

        return Terminal(title: title, window: try await focus(windowTitled: title, writing: file, by: "xterm"), file: file)
    }

    /// Opens an xterm running an interactive bash and returns once it has the keyboard focus and reads its first line.
    public func openShell() async throws -> (Terminal, CommandLineShell) {
        let title = "notula-shell-\(terminalsOpened.withLock { $0 += 1; return $0 })"
        let home = "\(folder)/\(title)"
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: false)
        let shell = try CommandLineShell(folder: home)
        let xterm = Process()
        xterm.executableURL = URL(fileURLWithPath: "/usr/bin/xterm")
        xterm.arguments = ["-T", title, "-geometry", "80x24+0+0", "-e"] + shell.command
        xterm.environment = environment.merging(["LC_ALL": "C.UTF-8", "PATH": "/usr/bin:/bin", "HOME": home]) { $1 }
        xterm.standardOutput = FileHandle.nullDevice
        xterm.standardError = FileHandle.nullDevice
        try xterm.run()
        children.withLock { $0.append(xterm.processIdentifier) }
        let window = try await focus(windowTitled: title, writing: shell.readyFile, by: "xterm")
        return (Terminal(title: title, window: window, file: "\(home)/line"), shell)
    }

    /// Opens a GTK4 window with one text entry (`typing-target.py`, which writes the entry's text to `file` at every
    /// change) and returns once it has the keyboard focus: a client that pastes on Ctrl+V, unlike a terminal.
    public func openTextEntry() async throws -> Terminal {
        let title = "notula-entry-\(terminalsOpened.withLock { $0 += 1; return $0 })"
        let file = "\(folder)/\(title).txt"
        let client = Process()
        client.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        client.arguments = [GnomeShellHost.helpers.appendingPathComponent("typing-target.py").path, file, title]
        client.environment = environment.merging(["LC_ALL": "C.UTF-8", "GDK_BACKEND": "x11", "GSK_RENDERER": "cairo"]) { $1 }
        client.standardOutput = FileHandle.nullDevice
        client.standardError = FileHandle.nullDevice
        try client.run()
        children.withLock { $0.append(client.processIdentifier) }
        return Terminal(title: title, window: try await focus(windowTitled: title, writing: file, by: "typing-target.py"), file: file)
    }

    /// Gives the window titled `title` the focus once it is shown and `file` exists; returns the window's ID.
    private func focus(windowTitled title: String, writing file: String, by program: String) async throws -> String {
        var window = ""
        try await poll(within: .seconds(10)) {
            guard FileManager.default.fileExists(atPath: file),
                let found = try? xdotool("search", "--onlyvisible", "--name", title).split(separator: "\n").first
            else { return false }
            window = String(found)
            _ = try? xdotool("windowfocus", window)
            return (try? xdotool("getwindowfocus"))?.trimmingCharacters(in: .whitespacesAndNewlines) == window
        } otherwise: {
            CommandFailed(command: [program], status: 0, errorOutput: "\(title) never had the focus")
        }
        return window
    }

    /// Sets the keyboard layout, as `setxkbmap` in the user's session does.
    public func setKeyboardLayout(_ layout: String) throws {
        try output(of: ["/usr/bin/setxkbmap", "-display", environment["DISPLAY"]!, layout])
    }

    private func xdotool(_ arguments: String...) throws -> String {
        try output(of: ["/usr/bin/xdotool"] + arguments, environment: environment)
    }
}
