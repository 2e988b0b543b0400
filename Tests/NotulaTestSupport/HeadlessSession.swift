import DBus
import Foundation
import Synchronization

/// A desktop session for a headless compositor (GNOME Shell, KWin) that refuses root: its processes run as `nobody`
/// with a runtime folder and home of their own, on a session bus that also lets root in (the test, its notulad, and
/// a portal frontend that must read a root caller's `/proc/PID/root`). Its processes, known by the runtime folder in
/// their environment, are ended one by one when the test process exits (also those its bus started on demand).
public final class HeadlessSession: SessionProcesses {
    /// Why a host cannot run on this machine, said to the person reading the test's output.
    public struct Unavailable: Error, CustomStringConvertible {
        public let reason: String
        public var description: String { reason }
    }

    /// The session bus.
    public let busAddress: String
    /// The session's home, where its user may write (a typing target's file).
    let home: URL
    /// The environment every process of the session gets; its `XDG_RUNTIME_DIR` marks them.
    let environment: [String: String]
    let logFolder: URL

    static let user = "65534"

    /// Makes the folders, owned by the session's user, and has them removed when the test process exits (the logs
    /// kept where the host did not come up: see `cameUp`).
    /// - Parameter desktop: the environment that tells programs which desktop this is.
    init(named name: String, desktop: [String: String]) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("notula-\(name)-\(UUID().uuidString)")
        logFolder = folder
        let runtime = folder.appendingPathComponent("run")
        home = runtime.appendingPathComponent("home")
        Self.endAtExit(folder)
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        chmod(runtime.path, 0o700)
        chmod(folder.path, 0o755)
        environment = [
            "HOME": home.path, "USER": "nobody", "LOGNAME": "nobody", "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8",
            "XDG_RUNTIME_DIR": runtime.path, "DBUS_SESSION_BUS_ADDRESS": "unix:path=\(runtime.path)/bus",
            // Where a host that needs one starts its stand-in system bus.
            "DBUS_SYSTEM_BUS_ADDRESS": "unix:path=\(runtime.path)/system_bus_socket",
            "XDG_SESSION_TYPE": "wayland", "WAYLAND_DISPLAY": "wayland-0", "GDK_BACKEND": "wayland",
        ].merging(desktop) { $1 }
        busAddress = environment["DBUS_SESSION_BUS_ADDRESS"]!
        try giveToUser(runtime)
    }

    /// Marks the host as up: its logs are removed with it.
    func cameUp() { Self.cameUp(logFolder) }

    /// Has every process whose `XDG_RUNTIME_DIR` is `folder`'s `run` ended when the test process exits, and the
    /// folder removed (its logs kept until `cameUp`).
    static func endAtExit(_ folder: URL) {
        hostFolders.withLock { $0[folder.path] = false }
        _ = endingAtExit
    }

    /// Marks the host of `folder` as up: its logs are removed with it.
    static func cameUp(_ folder: URL) { hostFolders.withLock { $0[folder.path] = true } }

    /// A new connection to the session bus, as the test's notulad would have.
    public func connect() async throws -> Bus { try await Bus.connect(address: busAddress) }

    /// Starts the session bus, activating the installed services as the desktop expects.
    func startSessionBus() async throws {
        let config = logFolder.appendingPathComponent("session-bus.conf")
        try Data(Self.sessionBusConfiguration().utf8).write(to: config)
        chmod(config.path, 0o644)
        try await startBus(
            ["/usr/bin/dbus-daemon", "--config-file=\(config.path)", "--address=\(busAddress)", "--nofork", "--print-address=1"],
            log: "session-bus")
    }

    /// A process of the session's user, its output in the log folder.
    func sessionProcess(_ command: [String], log name: String) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
        process.arguments = asUser(command)
        process.environment = environment
        try logOutput(of: process, to: name)
        return process
    }

    /// Runs a short command as the session's user, to its end.
    func runAsUser(_ command: [String]) throws -> CommandResult {
        try run("/usr/bin/setpriv", asUser(command), environment: environment)
    }

    /// setpriv execs the command as the user: no parent is left behind to outlive a kill.
    private func asUser(_ command: [String]) -> [String] {
        ["--reuid=\(Self.user)", "--regid=\(Self.user)", "--clear-groups", "--"] + command
    }

    /// xdg-desktop-portal, as root with the session's environment: for a root caller (the test's notulad) the
    /// frontend must read `/proc/PID/root` to tell a sandboxed app from a host one, which a `nobody` one cannot.
    func portalFrontend() throws -> Process {
        let portal = Process()
        portal.executableURL = URL(fileURLWithPath: "/usr/libexec/xdg-desktop-portal")
        portal.arguments = ["--replace"]
        portal.environment = environment
        try logOutput(of: portal, to: "portal")
        return portal
    }

    /// Starts a dbus-daemon as the user and returns once it listens (it prints its address then).
    func startBus(_ command: [String], log name: String) async throws {
        let daemon = try sessionProcess(command, log: name)
        let address = Pipe()
        daemon.standardOutput = address
        try daemon.run()
        _ = try readLine(from: address.fileHandleForReading)
    }

    /// Gives `item`, and all in it, to the session's user.
    func giveToUser(_ item: URL) throws { Self.giveToUser(item) }

    /// Gives `item`, and all in it, to `nobody`, the user of every headless session.
    static func giveToUser(_ item: URL) {
        let owner = uid_t(Self.user)!
        chown(item.path, owner, owner)
        for case let inside as URL in FileManager.default.enumerator(at: item, includingPropertiesForKeys: nil) ?? .init() {
            chown(inside.path, owner, owner)
        }
    }

    private func logOutput(of process: Process, to name: String) throws {
        let file = logFolder.appendingPathComponent("\(name).log")
        _ = FileManager.default.createFile(atPath: file.path, contents: nil)
        let log = try FileHandle(forWritingTo: file)
        process.standardOutput = log
        process.standardError = log
    }

    /// What is missing of `programs` (`make test-deps` installs them); root is needed to run the session as nobody.
    static func missing(_ programs: [String]) -> String? {
        guard getuid() == 0 else { return "the headless desktop runs its session as nobody, which needs root" }
        let missing = (["/usr/bin/dbus-daemon", "/usr/bin/setpriv", "/usr/libexec/xdg-desktop-portal"] + programs)
            .filter { !FileManager.default.fileExists(atPath: $0) }
        guard !missing.isEmpty else { return nil }
        return "missing \(missing.joined(separator: ", ")): run make test-deps"
    }

    /// A stand-in system bus: open to all, activating nothing.
    static func systemBusConfiguration(listeningAt socket: String) -> String {
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

    /// `sessionConfiguration` (a dbus-daemon session.conf) letting root in besides the session's user, its
    /// `session.d` found where `services` is.
    static func sessionBusConfiguration(from sessionConfiguration: String, includingFrom services: String) -> String {
        sessionConfiguration
            .replacingOccurrences(of: #"<policy context="default">"#, with: #"<policy context="default"><allow user="root"/>"#)
            .replacingOccurrences(of: "<includedir>session.d</includedir>", with: "<includedir>\(services)</includedir>")
    }

    /// The machine's session bus configuration, activating the installed services, and letting root in besides the
    /// session's user.
    private static func sessionBusConfiguration() throws -> String {
        sessionBusConfiguration(
            from: try String(contentsOfFile: "/usr/share/dbus-1/session.conf", encoding: .utf8),
            includingFrom: "/usr/share/dbus-1/session.d")
    }
}

/// What starts a desktop session's programs: its user's processes, and the home they may write in.
protocol SessionProcesses: Sendable {
    var home: URL { get }
    func sessionProcess(_ command: [String], log name: String) throws -> Process
}

/// GNOME Shell's Eval (unsafe mode, from the test extension): the script's result as JSON, nil when it failed.
func evaluateInShell(_ script: String, through client: Bus) async throws -> String? {
    let reply = try await client.call(
        MethodCall(
            destination: "org.gnome.Shell", path: ObjectPath("/org/gnome/Shell")!, interface: "org.gnome.Shell", member: "Eval",
            arguments: [.string(script)]))
    return try reply.argument(0, as: Bool.self) ? reply.argument(1, as: String.self) : nil
}

// MARK: The end of the test process

/// The folders of the sessions started (their runtime folder marks their processes), and whether each came up.
private let hostFolders = Mutex<[String: Bool]>([:])

private let endingAtExit: Void = { atexit { endHosts() } }()

/// Ends every process of every session, one by one, known by its runtime folder (also those its buses started on
/// demand: the portals, IBus, AT-SPI, dconf…), then removes the folders; the logs of one that did not come up are
/// kept, as the skipped test said.
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
