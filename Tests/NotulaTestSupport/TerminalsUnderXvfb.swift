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
        // No session bus: GLib would start one for the display, and on it the accessibility bus, which outlived the
        // display (two left by every desktop pass, in root's ~/.cache/at-spi).
        client.environment = environment.merging([
            "LC_ALL": "C.UTF-8", "GDK_BACKEND": "x11", "GSK_RENDERER": "cairo", "DBUS_SESSION_BUS_ADDRESS": "disabled:",
        ]) { $1 }
        client.standardOutput = FileHandle.nullDevice
        client.standardError = FileHandle.nullDevice
        try client.run()
        children.withLock { $0.append(client.processIdentifier) }
        return Terminal(title: title, window: try await focus(windowTitled: title, writing: file, by: "typing-target.py"), file: file)
    }

    /// Copies several types at once through GTK4 (`clipboard-owner.py`), as a browser copies text with its HTML:
    /// returns once the clipboard offers them. GTK serves them until another program copies.
    public func copyTogether(_ items: [(type: String, bytes: Data)]) async throws {
        let files = try items.enumerated().map { index, item in
            let file = "\(folder)/offered-\(UUID().uuidString)-\(index)"
            try item.bytes.write(to: URL(fileURLWithPath: file))
            return [item.type, file]
        }.flatMap { $0 }
        let owner = Process()
        owner.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        owner.arguments = [GnomeShellHost.helpers.appendingPathComponent("clipboard-owner.py").path] + files
        // No accessibility bus: GTK waits on its launcher at start, which under load took past the wait below.
        owner.environment = environment.merging(["GDK_BACKEND": "x11", "GTK_A11Y": "none"]) { $1 }
        owner.standardOutput = FileHandle.nullDevice
        owner.standardError = FileHandle.nullDevice
        try owner.run()
        children.withLock { $0.append(owner.processIdentifier) }
        // The earlier owner may offer the same types: the clipboard is this copy's once its small items read back.
        let small = items.filter { $0.bytes.count <= 4096 }
        try await poll(within: .seconds(30)) {
            let listed = (try? self.clipboardTypes()) ?? []
            return items.allSatisfy { listed.contains($0.type) } && small.allSatisfy { (try? self.clipboardBytes($0.type)) == $0.bytes }
        } otherwise: {
            CommandFailed(command: ["clipboard-owner.py"], status: 0, errorOutput: "the clipboard never offered \(items.map(\.type)) as copied")
        }
    }

    /// The types the clipboard's owner offers (`TARGETS`).
    public func clipboardTypes() throws -> [String] {
        try output(of: ["/usr/bin/xclip", "-selection", "clipboard", "-out", "-target", "TARGETS"], environment: environment)
            .split(separator: "\n").map(String.init)
    }

    /// The clipboard's bytes of `type`, as a pasting program reads them (through a file: `run` reads text).
    public func clipboardBytes(_ type: String) throws -> Data {
        let file = "\(folder)/read-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: file) }
        try output(
            of: ["/bin/sh", "-c", "exec /usr/bin/xclip -selection clipboard -out -target \"$1\" > \"$2\"", "sh", type, file],
            environment: environment)
        return try Data(contentsOf: URL(fileURLWithPath: file))
    }

    /// Starts KDE's clipboard manager, Klipper, on this display and the test's session bus, with a home of its own;
    /// returns once it answers there. Killed with the display. A crash ends it (`KDE_DEBUG`): no crash dialog opens.
    public func startKlipper() async throws -> Klipper {
        let home = "\(folder)/klipper-home"
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
        let klipper = Process()
        klipper.executableURL = URL(fileURLWithPath: "/usr/bin/klipper")
        klipper.environment = ProcessInfo.processInfo.environment.merging(
            environment.merging(["HOME": home, "XDG_CONFIG_HOME": "\(home)/.config", "XDG_DATA_HOME": "\(home)/.local/share", "QT_QPA_PLATFORM": "xcb", "KDE_DEBUG": "1"]) { $1 }
        ) { $1 }
        klipper.standardOutput = FileHandle.nullDevice
        klipper.standardError = FileHandle.nullDevice
        try klipper.run()
        children.withLock { $0.append(klipper.processIdentifier) }
        let started = Klipper()
        try await poll(within: .seconds(20)) { (try? started.history()) != nil } otherwise: {
            CommandFailed(command: ["klipper"], status: 0, errorOutput: "Klipper never answered on the session bus")
        }
        return started
    }

    /// Klipper, read over the session bus as its own applet reads it.
    public struct Klipper: Sendable {
        /// What it keeps, the newest first.
        public func history() throws -> [String] {
            let said = try output(of: [
                "/usr/bin/busctl", "--user", "--json=short", "call", "org.kde.klipper", "/klipper", "org.kde.klipper.klipper",
                "getClipboardHistoryMenu",
            ])
            let reply = try JSONSerialization.jsonObject(with: Data(said.utf8)) as? [String: Any]
            return (reply?["data"] as? [[String]])?.first ?? []
        }
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
