import DBus
import Foundation
import Synchronization

/// A real GNOME Shell 43, headless, with xdg-desktop-portal and its GNOME backend on the Shell's own session bus:
/// the desktop a GNOME user's notulad types into.
///
/// The Shell refuses root, so the whole session runs as `nobody` with a runtime folder and home of its own: a
/// stand-in system bus with python3-dbusmock's logind, the session bus (which activates the portals, AT-SPI and
/// IBus as the Shell asks), the Shell. The test, which runs as root, may connect to that bus. One exception: the
/// portal frontend runs as root, as it must read the caller's `/proc/PID/root` to tell a sandboxed app from a host
/// one, which a `nobody` portal cannot do for a root caller (it refuses with "Unable to open /proc/PID/root").
/// Started once per test process, by the first test that asks; its processes, known by the runtime folder in their
/// environment, are ended one by one when the process exits.
public final class GnomeShellHost: Sendable {
    /// Why the host cannot run on this machine, said to the person reading the test's output.
    public struct Unavailable: Error, CustomStringConvertible {
        public let reason: String
        public var description: String { reason }
    }

    /// The session bus of the Shell and the portals.
    public let busAddress: String
    /// The session's home, where its user may write (a typing target's file).
    let home: URL
    /// The environment every process of the session gets; its `XDG_RUNTIME_DIR` marks them.
    let environment: [String: String]
    let logFolder: URL

    static let user = "65534"
    static let helpers = packageRoot.appendingPathComponent("Tests/gnome-shell-host")
    static let shellName: BusName = "org.gnome.Shell"
    static let portalName: BusName = "org.freedesktop.portal.Desktop"

    /// The host of this test process: started by the first caller, shared by all.
    public static func shared() async -> Result<GnomeShellHost, Unavailable> { await starting.value }

    private static let starting = Task { () -> Result<GnomeShellHost, Unavailable> in
        if let missing = missingPrograms() { return .failure(Unavailable(reason: missing)) }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("notula-gnome-\(UUID().uuidString)")
        hostFolders.withLock { $0[folder.path] = false }
        atexit { endHosts() }
        do {
            let host = try await GnomeShellHost(in: folder)
            hostFolders.withLock { $0[folder.path] = true }
            return .success(host)
        } catch {
            return .failure(Unavailable(reason: "GNOME Shell did not come up: \(error) (logs in \(folder.path))"))
        }
    }

    private init(in folder: URL) async throws {
        let runtime = folder.appendingPathComponent("run")
        home = runtime.appendingPathComponent("home")
        logFolder = folder
        let extensions = home.appendingPathComponent(".local/share/gnome-shell/extensions")
        try FileManager.default.createDirectory(at: extensions, withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            at: Self.helpers.appendingPathComponent("unsafe-mode@notula.test"),
            to: extensions.appendingPathComponent("unsafe-mode@notula.test"))
        try Self.giveToUser(runtime)
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

        let systemConfig = folder.appendingPathComponent("system-bus.conf")
        try Data(Self.systemBusConfiguration(listeningAt: systemBusSocket).utf8).write(to: systemConfig)
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
            let set = try run("/usr/bin/setpriv", asUser(["/usr/bin/gsettings", "set", schema, key, value]), environment: environment)
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
            (try? await Self.evaluate("!Main.layoutManager._startingUp && !Main.overview.visible", through: client)) == "true"
        } otherwise: {
            CommandFailed(command: ["gnome-shell"], status: 0, errorOutput: "never finished starting (or the test extension did not load)")
        }
        let portal = Process()
        portal.executableURL = URL(fileURLWithPath: "/usr/libexec/xdg-desktop-portal")
        portal.arguments = ["--replace"]
        portal.environment = environment
        try Self.logOutput(of: portal, to: folder.appendingPathComponent("portal.log"))
        try await launch(portal, owning: Self.portalName, watchedFrom: client)
    }

    /// A new connection to the session bus, as the test's notulad would have.
    public func connect() async throws -> Bus { try await Bus.connect(address: busAddress) }

    /// Runs JavaScript in the Shell (unsafe mode, from the test extension): its result as JSON, nil when it failed.
    func evaluate(_ script: String) async throws -> String? {
        let client = try await connect()
        defer { Task { await client.close() } }
        return try await Self.evaluate(script, through: client)
    }

    private static func evaluate(_ script: String, through client: Bus) async throws -> String? {
        let reply = try await client.call(
            MethodCall(
                destination: shellName, path: ObjectPath("/org/gnome/Shell")!, interface: "org.gnome.Shell", member: "Eval",
                arguments: [.string(script)]))
        return try reply.argument(0, as: Bool.self) ? reply.argument(1, as: String.self) : nil
    }

    // MARK: Processes of the session

    /// A process of the session's user, its output in the log folder.
    func sessionProcess(_ command: [String], log name: String) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
        process.arguments = asUser(command)
        process.environment = environment
        try Self.logOutput(of: process, to: logFolder.appendingPathComponent("\(name).log"))
        return process
    }

    /// setpriv execs the command as the user: no parent is left behind to outlive a kill.
    private func asUser(_ command: [String]) -> [String] {
        ["--reuid=\(Self.user)", "--regid=\(Self.user)", "--clear-groups", "--"] + command
    }

    /// Starts a dbus-daemon as the user and returns once it listens (it prints its address then).
    private func startBus(_ command: [String], log name: String) async throws {
        let daemon = try sessionProcess(command, log: name)
        let address = Pipe()
        daemon.standardOutput = address
        try daemon.run()
        _ = try readLine(from: address.fileHandleForReading)
    }

    private static func logOutput(of process: Process, to file: URL) throws {
        _ = FileManager.default.createFile(atPath: file.path, contents: nil)
        let log = try FileHandle(forWritingTo: file)
        process.standardOutput = log
        process.standardError = log
    }

    private static func giveToUser(_ folder: URL) throws {
        let owner = uid_t(user)!
        chown(folder.path, owner, owner)
        for case let item as URL in FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil) ?? .init() {
            chown(item.path, owner, owner)
        }
    }

    // MARK: Configuration

    /// What must be installed (`make test-deps`), or nil when all is; root is needed to run the session as nobody.
    private static func missingPrograms() -> String? {
        guard getuid() == 0 else { return "the GNOME Shell host runs its session as nobody, which needs root" }
        let programs = [
            "/usr/bin/gnome-shell", "/usr/libexec/xdg-desktop-portal", "/usr/libexec/xdg-desktop-portal-gnome", "/usr/bin/dbus-daemon",
            "/usr/bin/setpriv", "/usr/bin/gsettings", "/usr/bin/python3", "/usr/lib/python3/dist-packages/dbusmock",
            "/usr/lib/python3/dist-packages/pyatspi", "/usr/lib/python3/dist-packages/gi",
        ]
        let missing = programs.filter { !FileManager.default.fileExists(atPath: $0) }
        let typelibs = (try? FileManager.default.contentsOfDirectory(atPath: "/usr/lib")) ?? []
        let hasGTK4 = typelibs.contains { FileManager.default.fileExists(atPath: "/usr/lib/\($0)/girepository-1.0/Gtk-4.0.typelib") }
        let all = missing + (hasGTK4 ? [] : ["Gtk-4.0.typelib (gir1.2-gtk-4.0)"])
        guard !all.isEmpty else { return nil }
        return "missing \(all.joined(separator: ", ")): run make test-deps"
    }

    /// The stand-in system bus: open to all, activating nothing.
    private static func systemBusConfiguration(listeningAt socket: String) -> String {
        """
        <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
         "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
        <busconfig>
          <type>system</type>
          <listen>unix:path=\(socket)</listen>
          <auth>EXTERNAL</auth>
          <policy context="default">
            <allow user="*"/>
            <allow own="*"/>
            <allow send_type="method_call"/>
            <allow send_type="signal"/>
            <allow send_type="method_return"/>
            <allow send_type="error"/>
            <allow receive_type="method_call"/>
            <allow receive_type="signal"/>
            <allow receive_type="method_return"/>
            <allow receive_type="error"/>
          </policy>
        </busconfig>
        """
    }

    /// The machine's session bus configuration, activating the installed services as the Shell expects, and
    /// letting root (the test, the portal frontend) in besides the session's user.
    private static func sessionBusConfiguration() throws -> String {
        try String(contentsOfFile: "/usr/share/dbus-1/session.conf", encoding: .utf8)
            .replacingOccurrences(of: #"<policy context="default">"#, with: #"<policy context="default"><allow user="root"/>"#)
            .replacingOccurrences(of: "<includedir>session.d</includedir>", with: "<includedir>/usr/share/dbus-1/session.d</includedir>")
    }
}

// MARK: The end of the test process

/// The folders of the hosts started (their runtime folder marks their processes), and whether each came up.
private let hostFolders = Mutex<[String: Bool]>([:])

/// Ends every process of every host, one by one, known by its runtime folder (also those its buses started on
/// demand: the portals, IBus, AT-SPI, dconf, evolution…), then removes the folders; the logs of one that did
/// not come up are kept, as the skipped test said.
private func endHosts() {
    for (folder, cameUp) in hostFolders.withLock({ $0 }) {
        let runtime = folder + "/run"
        for _ in 0..<5 {
            let marked = processes(withEnvironment: "XDG_RUNTIME_DIR=\(runtime)")
            if marked.isEmpty { break }
            for process in marked { kill(process, SIGKILL) }
        }
        // The document portal's FUSE mount outlives its killed process.
        umount2(runtime + "/doc", Int32(MNT_DETACH))
        try? FileManager.default.removeItem(atPath: cameUp ? folder : runtime)
    }
}

private func processes(withEnvironment entry: String) -> [pid_t] {
    let marker = Array(entry.utf8)
    let names = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
    return names.compactMap { name in
        guard let process = pid_t(name), process != getpid(),
            let environ = FileManager.default.contents(atPath: "/proc/\(name)/environ")
        else { return nil }
        return environ.split(separator: 0).contains { Array($0) == marker } ? process : nil
    }
}
