import DBus
import Foundation

/// A real GNOME Shell 48 (Debian 13's), headless, with xdg-desktop-portal 1.20 and its GNOME backend: the desktop
/// where the RemoteDesktop portal is version 2 (a `restore_token` spares the user the second dialog) and the
/// Clipboard portal is offered.
///
/// Debian 12 has Shell 43 only, so the session runs in a trixie root built once by `Tests/gnome48-host/build-root.sh`
/// (`make test` does it) in `.build/gnome48-root`. A holder process keeps a private mount namespace where the root
/// has its `/proc`, `/dev`, `/sys`, a `/tmp` of its own, and the host's session folder at the same path, so that
/// buses, the Wayland socket and files are shared with the test on the host; none of those mounts is seen on the
/// host. Every process of the session enters that namespace and the root, and runs as `nobody` (the Shell refuses
/// root), but the portal frontend, which runs as root as on the 43 host to read the caller's `/proc/PID/root`. The
/// test and notulad, root on the host, join the session bus, which lets root in. Started once per test process, by
/// the first test that asks; its processes, known by the runtime folder in their environment, the holder's
/// included, are ended one by one when the process exits.
public final class Gnome48Host: SessionProcesses, GnomeShell {
    /// The session bus of the Shell and the portals.
    public let busAddress: String
    /// The session's home, where its user may write (a typing target's file); the same path in the root.
    public let home: URL
    /// The environment every process of the session gets; its `XDG_RUNTIME_DIR` marks them.
    let environment: [String: String]
    let logFolder: URL
    /// The helper scripts, copied where the root sees them.
    let helpers: URL
    /// The holder's mount namespace, which every process of the session enters.
    private let namespace: String

    static let root = packageRoot.appendingPathComponent(".build/gnome48-root")
    static let user = "65534"
    static let shellName: BusName = "org.gnome.Shell"
    static let portalName: BusName = "org.freedesktop.portal.Desktop"

    /// The host of this test process: started by the first caller, shared by all.
    public static func shared() async -> Result<Gnome48Host, GnomeShellHost.Unavailable> { await starting.value }

    private static let starting = Task { () -> Result<Gnome48Host, GnomeShellHost.Unavailable> in
        if let missing = missingPieces() { return .failure(GnomeShellHost.Unavailable(reason: missing)) }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("notula-gnome48-\(UUID().uuidString)")
        HeadlessSession.endAtExit(folder)
        do {
            let host = try await Gnome48Host(in: folder)
            HeadlessSession.cameUp(folder)
            return .success(host)
        } catch {
            return .failure(GnomeShellHost.Unavailable(reason: "GNOME Shell 48 did not come up: \(error) (logs in \(folder.path))"))
        }
    }

    private init(in folder: URL) async throws {
        let runtime = folder.appendingPathComponent("run")
        home = runtime.appendingPathComponent("home")
        logFolder = folder
        helpers = folder.appendingPathComponent("helpers")
        let sources = packageRoot.appendingPathComponent("Tests")
        let extensions = home.appendingPathComponent(".local/share/gnome-shell/extensions")
        try FileManager.default.createDirectory(at: extensions, withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            at: sources.appendingPathComponent("gnome48-host/unsafe-mode@notula.test"),
            to: extensions.appendingPathComponent("unsafe-mode@notula.test"))
        // Made before the portal starts, so that it watches it: a `.desktop` file put there later is known at once.
        try FileManager.default.createDirectory(
            at: home.appendingPathComponent(".local/share/applications"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: helpers, withIntermediateDirectories: true)
        for script in ["gnome-shell-host/answer-dialog.py", "gnome-shell-host/typing-target.py"] {
            let source = sources.appendingPathComponent(script)
            try FileManager.default.copyItem(at: source, to: helpers.appendingPathComponent(source.lastPathComponent))
        }
        HeadlessSession.giveToUser(runtime)
        chmod(runtime.path, 0o700)
        chmod(folder.path, 0o755)

        let systemBusSocket = runtime.appendingPathComponent("system_bus_socket").path
        environment = [
            "HOME": home.path, "USER": "nobody", "LOGNAME": "nobody", "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8",
            "XDG_RUNTIME_DIR": runtime.path, "DBUS_SYSTEM_BUS_ADDRESS": "unix:path=\(systemBusSocket)",
            "DBUS_SESSION_BUS_ADDRESS": "unix:path=\(runtime.path)/bus", "XDG_CURRENT_DESKTOP": "GNOME", "XDG_SESSION_DESKTOP": "gnome",
            "XDG_SESSION_TYPE": "wayland", "WAYLAND_DISPLAY": "wayland-0", "GDK_BACKEND": "wayland",
        ]
        busAddress = environment["DBUS_SESSION_BUS_ADDRESS"]!
        namespace = try Self.holdNamespace(sharing: folder, environment: environment)

        let systemConfig = folder.appendingPathComponent("system-bus.conf")
        try Data(HeadlessSession.systemBusConfiguration(listeningAt: systemBusSocket).utf8).write(to: systemConfig)
        let sessionConfig = folder.appendingPathComponent("session-bus.conf")
        try Data(Self.sessionBusConfiguration().utf8).write(to: sessionConfig)
        for config in [systemConfig, sessionConfig] { chmod(config.path, 0o644) }

        try await startBus(
            ["/usr/bin/dbus-daemon", "--config-file=\(systemConfig.path)", "--nofork", "--print-address=1"], log: "system-bus")
        let systemBus = try await Bus.connect(address: environment["DBUS_SYSTEM_BUS_ADDRESS"]!)
        defer { Task { await systemBus.close() } }
        try await launch(
            sessionProcess(["/usr/bin/python3", "-m", "dbusmock", "--system", "--template", "logind"], log: "logind"),
            owning: "org.freedesktop.login1", watchedFrom: systemBus)

        try await startBus(
            ["/usr/bin/dbus-daemon", "--config-file=\(sessionConfig.path)", "--address=\(busAddress)", "--nofork", "--print-address=1"],
            log: "session-bus")
        for (schema, key, value) in [
            ("org.gnome.shell", "enabled-extensions", "['unsafe-mode@notula.test']"), ("org.gnome.desktop.session", "idle-delay", "0"),
            ("org.gnome.desktop.screensaver", "lock-enabled", "false"), ("org.gnome.desktop.interface", "toolkit-accessibility", "true"),
        ] {
            let set = try runAsUser(["/usr/bin/gsettings", "set", schema, key, value])
            guard set.status == 0 else {
                throw CommandFailed(command: ["gsettings", "set", schema, key], status: set.status, errorOutput: set.errorOutput)
            }
        }

        let client = try await Bus.connect(address: busAddress)
        defer { Task { await client.close() } }
        try await launch(
            sessionProcess(["/usr/bin/gnome-shell", "--headless", "--wayland", "--no-x11", "--virtual-monitor", "1280x800"], log: "shell"),
            owning: Self.shellName, watchedFrom: client)
        try await poll(within: .seconds(60)) {
            // Until the Shell exports its object, Eval is an unknown method: not ready yet.
            (try? await evaluateInShell("!Main.layoutManager._startingUp && !Main.overview.visible", through: client)) == "true"
        } otherwise: {
            CommandFailed(command: ["gnome-shell"], status: 0, errorOutput: "never finished starting (or the test extension did not load)")
        }
        try await launch(
            sessionProcess(["/usr/libexec/xdg-desktop-portal", "--replace"], log: "portal", asRoot: true),
            owning: Self.portalName, watchedFrom: client)
    }

    /// A new connection to the session bus, as the test's notulad would have.
    public func connect() async throws -> Bus { try await Bus.connect(address: busAddress) }

    /// Debian 13's.
    public let shellMajor = 48
    public var shellLogFile: URL { logFolder.appendingPathComponent("shell.log") }

    /// Runs `command` in the root as the session's user, and waits for it to end.
    public func runAsUser(_ command: [String]) throws -> CommandResult {
        try run("/usr/bin/nsenter", inRoot(command), environment: environment)
    }

    /// Runs JavaScript in the Shell (unsafe mode, from the test extension): its result as JSON, nil when it failed.
    func evaluate(_ script: String) async throws -> String? {
        let client = try await connect()
        defer { Task { await client.close() } }
        return try await evaluateInShell(script, through: client)
    }

    // MARK: Processes of the session

    /// A process of the session's user, in the root; its output in the log folder.
    func sessionProcess(_ command: [String], log name: String) throws -> Process {
        try sessionProcess(command, log: name, asRoot: false)
    }

    /// A process of the session, in the root, as its user unless `asRoot`; its output in the log folder.
    func sessionProcess(_ command: [String], log name: String, asRoot: Bool) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/nsenter")
        process.arguments = inRoot(command, asRoot: asRoot)
        process.environment = environment
        try Self.logOutput(of: process, to: logFolder.appendingPathComponent("\(name).log"))
        return process
    }

    /// nsenter's arguments that run `command` in the namespace and the root. nsenter, chroot and setpriv each exec
    /// the next: the process started is the command itself, and no parent is left behind to outlive a kill.
    private func inRoot(_ command: [String], asRoot: Bool = false) -> [String] {
        let user = asRoot ? [] : ["/usr/bin/setpriv", "--reuid=\(Self.user)", "--regid=\(Self.user)", "--clear-groups", "--"]
        return ["--mount=\(namespace)", "--", "/usr/sbin/chroot", Self.root.path] + user + command
    }

    /// Starts the namespace holder: `unshare` makes a private mount namespace, mounts what the root needs (`folder`
    /// at its own path inside the root), says so, and sleeps until killed.
    /// - Returns: the path of its namespace, for nsenter.
    private static func holdNamespace(sharing folder: URL, environment: [String: String]) throws -> String {
        let root = Self.root.path
        let mounts = """
            set -e
            mount -t proc proc "$1/proc"
            mount --rbind /dev "$1/dev"
            mount --rbind /sys "$1/sys"
            mount -t tmpfs -o mode=1777 tmpfs "$1/tmp"
            mkdir -p "$1$2"
            mount --bind "$2" "$1$2"
            echo ready
            exec sleep infinity
            """
        let holder = Process()
        holder.executableURL = URL(fileURLWithPath: "/usr/bin/unshare")
        holder.arguments = ["--mount", "--propagation", "private", "--", "/bin/sh", "-c", mounts, "holder", root, folder.path]
        holder.environment = environment
        let ready = Pipe()
        holder.standardOutput = ready
        try logOutput(of: holder, to: folder.appendingPathComponent("holder.log"), errorsOnly: true)
        try holder.run()
        guard (try? readLine(from: ready.fileHandleForReading)) == "ready" else {
            throw CommandFailed(command: ["unshare", "--mount"], status: 0, errorOutput: "the root's mounts failed (see holder.log)")
        }
        return "/proc/\(holder.processIdentifier)/ns/mnt"
    }

    /// Starts a dbus-daemon and returns once it listens (it prints its address then).
    private func startBus(_ command: [String], log name: String) async throws {
        let daemon = try sessionProcess(command, log: name)
        let address = Pipe()
        daemon.standardOutput = address
        try daemon.run()
        _ = try readLine(from: address.fileHandleForReading)
    }

    private static func logOutput(of process: Process, to file: URL, errorsOnly: Bool = false) throws {
        _ = FileManager.default.createFile(atPath: file.path, contents: nil)
        let log = try FileHandle(forWritingTo: file)
        if !errorsOnly { process.standardOutput = log }
        process.standardError = log
    }

    // MARK: Configuration

    /// What is missing, or nil when nothing is: root (for the namespace and the chroot), the host's util-linux, the
    /// built root.
    private static func missingPieces() -> String? {
        guard getuid() == 0 else { return "the GNOME Shell 48 host mounts a root and runs its session as nobody, which needs root" }
        let programs = ["/usr/bin/unshare", "/usr/bin/nsenter", "/usr/sbin/chroot"].filter { !FileManager.default.fileExists(atPath: $0) }
        guard programs.isEmpty else { return "missing \(programs.joined(separator: ", ")) (util-linux, coreutils)" }
        guard FileManager.default.fileExists(atPath: root.appendingPathComponent(".complete").path) else {
            let builder = FileManager.default.fileExists(atPath: "/usr/bin/mmdebstrap") ? "" : "mmdebstrap is missing (make test-deps); "
            return "no GNOME Shell 48 root in \(root.path): \(builder)make gnome48-root builds it (about 100 s, 1.2 GB)"
        }
        return nil
    }

    /// The root's session bus configuration, activating the root's services as the Shell expects, and letting root
    /// (the test, notulad, the portal frontend) in besides the session's user.
    private static func sessionBusConfiguration() throws -> String {
        HeadlessSession.sessionBusConfiguration(
            from: try String(contentsOf: root.appendingPathComponent("usr/share/dbus-1/session.conf"), encoding: .utf8),
            includingFrom: "/usr/share/dbus-1/session.d")
    }
}
