import Foundation

/// A headless sway whose windows are foot terminals that write what is typed into them to a file: a real Wayland
/// text client for typing tests. sway refuses to run as root, so it runs as `nobody`; the test, as root, reaches its
/// socket all the same. Meant to be started once for a suite (a test scoping trait does it) and killed when it goes.
public actor TerminalsInSway {
    /// The host of the suite being run, set by the suite's trait.
    @TaskLocal public static var current: TerminalsInSway?

    /// What a Wayland client needs to reach this sway: the runtime folder and the socket's name in it.
    public nonisolated let environment: [String: String]
    private nonisolated let folder: URL
    private let sway: Process
    /// A keyboard in the seat from the start, as every real session has one: a wtype that only waits (2000 s; it
    /// outlives its compositor, so it is killed with it). With none, the seat gains a keyboard only when the wtype
    /// under test starts, and foot, binding it late, lost the first keys (2 runs in 12 under load).
    private let keyboard: Process
    private nonisolated let swaySocket: String
    private var terminalsOpened = 0

    public init() async throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("notula-sway-\(UUID().uuidString)")
        let runtime = folder.appendingPathComponent("run")
        let home = folder.appendingPathComponent("home")
        for (path, mode) in [(folder, 0o755), (runtime, 0o700), (home, 0o755)] {
            try FileManager.default.createDirectory(at: path, withIntermediateDirectories: true, attributes: [.posixPermissions: mode])
        }
        for path in [runtime, home] { chown(path.path, 65534, 65534) }
        let config = folder.appendingPathComponent("sway.conf")
        try Data("output HEADLESS-1 resolution 1280x800\n".utf8).write(to: config)

        sway = Process()
        sway.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
        sway.arguments = ["--reuid=65534", "--regid=65534", "--clear-groups", "--", "sway", "-c", config.path]
        sway.environment = [
            "HOME": home.path, "XDG_RUNTIME_DIR": runtime.path, "PATH": "/usr/bin:/bin", "LC_ALL": "C.UTF-8",
            "WLR_BACKENDS": "headless", "WLR_LIBINPUT_NO_DEVICES": "1", "WLR_RENDERER": "pixman",
        ]
        sway.standardOutput = FileHandle.nullDevice
        let log = folder.appendingPathComponent("sway.log")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        sway.standardError = try FileHandle(forWritingTo: log)
        try sway.run()

        // sway makes its sockets, then answers on its IPC socket once its outputs and config are set up.
        var socket = ""
        var display = ""
        do {
            try await poll(within: .seconds(20)) { [sway] in
                guard sway.isRunning else {
                    throw CommandFailed(command: ["sway"], status: sway.terminationStatus, errorOutput: "see \(log.path)")
                }
                let names = (try? FileManager.default.contentsOfDirectory(atPath: runtime.path)) ?? []
                guard let ipc = names.first(where: { $0.hasPrefix("sway-ipc.") }),
                    let wayland = names.first(where: { $0.hasPrefix("wayland-") && !$0.hasSuffix(".lock") })
                else { return false }
                socket = runtime.appendingPathComponent(ipc).path
                display = wayland
                return (try? run("/usr/bin/swaymsg", ["-s", socket, "-t", "get_version"]))?.status == 0
            } otherwise: {
                CommandFailed(command: ["sway"], status: 0, errorOutput: "never answered on its IPC socket; see \(log.path)")
            }
        } catch {
            Self.end(sway)
            throw error
        }
        swaySocket = socket
        environment = ["XDG_RUNTIME_DIR": runtime.path, "WAYLAND_DISPLAY": display]

        keyboard = Process()
        keyboard.executableURL = URL(fileURLWithPath: "/usr/bin/wtype")
        keyboard.arguments = ["-s", "2000000"]
        keyboard.environment = environment
        keyboard.standardOutput = FileHandle.nullDevice
        keyboard.standardError = FileHandle.nullDevice
        do {
            try keyboard.run()
            try await poll(within: .seconds(10)) { [keyboard] in
                guard keyboard.isRunning else {
                    throw CommandFailed(command: ["wtype"], status: keyboard.terminationStatus, errorOutput: "")
                }
                let inputs = try output(of: ["/usr/bin/swaymsg", "-s", socket, "-t", "get_inputs"])
                return inputs.contains(#""type": "keyboard""#)
            } otherwise: {
                CommandFailed(command: ["wtype"], status: 0, errorOutput: "its keyboard never appeared in sway's inputs")
            }
        } catch {
            Self.end(keyboard)
            Self.end(sway)
            throw error
        }
    }

    deinit {
        // foot goes with its compositor.
        Self.end(keyboard)
        Self.end(sway)
        try? FileManager.default.removeItem(at: folder)
    }

    /// SIGKILL: a child of the test runner may inherit a mask that blocks SIGTERM.
    private static func end(_ process: Process) {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    }

    /// A terminal that writes every character typed into it, as typed, to `file`: its tty raw (no line editing, no
    /// echo, no signals), except that Return arrives as a newline.
    public struct Terminal: Sendable {
        public let appID: String
        public let file: String

        /// What has been typed into it so far.
        public func typed() -> String { (try? String(contentsOfFile: file, encoding: .utf8)) ?? "" }
    }

    /// Opens a terminal and returns once it has the keyboard focus, ready to be typed into.
    public nonisolated func openTerminal() async throws -> Terminal {
        let appID = "notula-terminal-\(await nextNumber())"
        let file = folder.appendingPathComponent("home/\(appID).txt").path
        // The shell makes the file only after stty has made the tty raw: once it exists, no key is cooked.
        try swaymsg("exec foot --app-id \(appID) sh -c 'stty raw -echo icrnl; exec cat > \(file)'")
        try await poll(within: .seconds(10)) {
            try FileManager.default.fileExists(atPath: file) && focusedAppID() == appID
        } otherwise: {
            CommandFailed(command: ["foot"], status: 0, errorOutput: "\(appID) never had the focus")
        }
        return Terminal(appID: appID, file: file)
    }

    /// Opens a foot running an interactive bash and returns once it has the keyboard focus and reads its first line.
    public nonisolated func openShell() async throws -> (Terminal, CommandLineShell) {
        let appID = "notula-shell-\(await nextNumber())"
        let home = folder.appendingPathComponent("home/\(appID)").path
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: false)
        chown(home, 65534, 65534)
        let shell = try CommandLineShell(folder: home)
        try swaymsg("exec foot --app-id \(appID) \(shell.command.joined(separator: " "))")
        try await poll(within: .seconds(10)) {
            try FileManager.default.fileExists(atPath: shell.readyFile) && focusedAppID() == appID
        } otherwise: {
            CommandFailed(command: ["foot", "bash"], status: 0, errorOutput: "\(appID) never had the focus")
        }
        return (Terminal(appID: appID, file: "\(home)/line"), shell)
    }

    /// Opens a GTK4 window with one text entry (`typing-target.py`, which writes the entry's text to `file` at every
    /// change) and returns once it has the keyboard focus: a client that pastes on Ctrl+V, unlike a terminal.
    public nonisolated func openTextEntry() async throws -> Terminal {
        let title = "notula-entry-\(await nextNumber())"
        let file = folder.appendingPathComponent("home/\(title).txt").path
        let client = GnomeShellHost.helpers.appendingPathComponent("typing-target.py").path
        // The cairo renderer: the headless sway renders with pixman, without GL.
        try swaymsg("exec env GSK_RENDERER=cairo python3 \(client) \(file) \(title)")
        try await poll(within: .seconds(20)) {
            try FileManager.default.fileExists(atPath: file) && focusedAppID() == "org.notula.TypingTarget"
        } otherwise: {
            CommandFailed(command: ["typing-target.py"], status: 0, errorOutput: "\(title) never had the focus")
        }
        return Terminal(appID: "org.notula.TypingTarget", file: file)
    }

    private func nextNumber() -> Int {
        terminalsOpened += 1
        return terminalsOpened
    }

    /// Closes `terminal`'s window.
    public nonisolated func close(_ terminal: Terminal) throws { try swaymsg("[app_id=\(terminal.appID)] kill") }

    /// Sets the keyboard layout of every keyboard, as `input * xkb_layout` in the user's sway config does.
    public nonisolated func setKeyboardLayout(_ layout: String) throws { try swaymsg("input * xkb_layout \(layout)") }

    private nonisolated func swaymsg(_ command: String) throws {
        try output(of: ["/usr/bin/swaymsg", "-s", swaySocket, command])
    }

    private nonisolated func focusedAppID() throws -> String? {
        let tree = try output(of: ["/usr/bin/swaymsg", "-s", swaySocket, "-t", "get_tree"])
        func focused(in node: [String: Any]) -> String? {
            if node["focused"] as? Bool == true { return node["app_id"] as? String }
            let children = (node["nodes"] as? [[String: Any]] ?? []) + (node["floating_nodes"] as? [[String: Any]] ?? [])
            return children.lazy.compactMap(focused(in:)).first
        }
        return (try JSONSerialization.jsonObject(with: Data(tree.utf8)) as? [String: Any]).flatMap(focused(in:))
    }
}
