import DBus
import Foundation

/// A real GNOME Shell 43, headless, with xdg-desktop-portal and its GNOME backend on the Shell's own session bus:
/// the desktop a GNOME user's notulad types into.
///
/// Its session (see `HeadlessSession`) has a stand-in system bus with python3-dbusmock's logind, the session bus
/// (which activates the portals, AT-SPI and IBus as the Shell asks), the Shell and the portal frontend. Started once
/// per test process, by the first test that asks.
public final class GnomeShellHost: GnomeShell {
    public typealias Unavailable = HeadlessSession.Unavailable

    let session: HeadlessSession
    /// The session bus of the Shell and the portals.
    public var busAddress: String { session.busAddress }

    static let helpers = packageRoot.appendingPathComponent("Tests/gnome-shell-host")
    static let shellName: BusName = "org.gnome.Shell"
    static let portalName: BusName = "org.freedesktop.portal.Desktop"

    /// The host of this test process: started by the first caller, shared by all.
    public static func shared() async -> Result<GnomeShellHost, Unavailable> { await starting.value }

    private static let starting = Task { () -> Result<GnomeShellHost, Unavailable> in
        if let missing = missingPrograms() { return .failure(Unavailable(reason: missing)) }
        let session: HeadlessSession
        do {
            session = try HeadlessSession(
                named: "gnome", desktop: ["XDG_CURRENT_DESKTOP": "GNOME", "XDG_SESSION_DESKTOP": "gnome"])
        } catch {
            return .failure(Unavailable(reason: "GNOME Shell's session could not be made: \(error)"))
        }
        do {
            let host = try await GnomeShellHost(in: session)
            session.cameUp()
            return .success(host)
        } catch {
            return .failure(Unavailable(reason: "GNOME Shell did not come up: \(error) (logs in \(session.logFolder.path))"))
        }
    }

    private init(in session: HeadlessSession) async throws {
        self.session = session
        let extensions = session.home.appendingPathComponent(".local/share/gnome-shell/extensions")
        try FileManager.default.createDirectory(at: extensions, withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            at: Self.helpers.appendingPathComponent("unsafe-mode@notula.test"),
            to: extensions.appendingPathComponent("unsafe-mode@notula.test"))
        try session.giveToUser(session.home)

        let systemBusSocket = session.environment["DBUS_SYSTEM_BUS_ADDRESS"]!.replacingOccurrences(of: "unix:path=", with: "")
        let systemConfig = session.logFolder.appendingPathComponent("system-bus.conf")
        try Data(HeadlessSession.systemBusConfiguration(listeningAt: systemBusSocket).utf8).write(to: systemConfig)
        chmod(systemConfig.path, 0o644)
        try await session.startBus(
            ["/usr/bin/dbus-daemon", "--config-file=\(systemConfig.path)", "--nofork", "--print-address=1"], log: "system-bus")
        let systemBus = try await Bus.connect(address: "unix:path=\(systemBusSocket)")
        defer { Task { await systemBus.close() } }
        try await launch(
            session.sessionProcess(["/usr/bin/python3", "-m", "dbusmock", "--system", "--template", "logind"], log: "logind"),
            owning: "org.freedesktop.login1", watchedFrom: systemBus)

        try await session.startSessionBus()
        for (schema, key, value) in [
            ("org.gnome.shell", "enabled-extensions", "['unsafe-mode@notula.test']"), ("org.gnome.desktop.session", "idle-delay", "0"),
            ("org.gnome.desktop.screensaver", "lock-enabled", "false"), ("org.gnome.desktop.interface", "toolkit-accessibility", "true"),
        ] {
            let set = try session.runAsUser(["/usr/bin/gsettings", "set", schema, key, value])
            guard set.status == 0 else {
                throw CommandFailed(command: ["gsettings", "set", schema, key], status: set.status, errorOutput: set.errorOutput)
            }
        }

        let client = try await session.connect()
        defer { Task { await client.close() } }
        try await launch(
            session.sessionProcess(
                ["/usr/bin/gnome-shell", "--headless", "--wayland", "--no-x11", "--virtual-monitor", "1280x800"], log: "shell"),
            owning: Self.shellName, watchedFrom: client)
        try await poll(within: .seconds(60)) {
            // Until the Shell exports its object, Eval is an unknown method: not ready yet.
            (try? await evaluateInShell("!Main.layoutManager._startingUp && !Main.overview.visible", through: client)) == "true"
        } otherwise: {
            CommandFailed(command: ["gnome-shell"], status: 0, errorOutput: "never finished starting (or the test extension did not load)")
        }
        try await launch(session.portalFrontend(), owning: Self.portalName, watchedFrom: client)
    }

    /// A new connection to the session bus, as the test's notulad would have.
    public func connect() async throws -> Bus { try await session.connect() }

    /// Debian 12's.
    public let shellMajor = 43
    public var home: URL { session.home }
    public var shellLogFile: URL { session.logFolder.appendingPathComponent("shell.log") }
    public func runAsUser(_ command: [String]) throws -> CommandResult { try session.runAsUser(command) }

    /// Runs JavaScript in the Shell (unsafe mode, from the test extension): its result as JSON, nil when it failed.
    func evaluate(_ script: String) async throws -> String? {
        let client = try await connect()
        defer { Task { await client.close() } }
        return try await evaluateInShell(script, through: client)
    }

    // MARK: Configuration

    /// What must be installed (`make test-deps`), or nil when all is.
    private static func missingPrograms() -> String? {
        let typelibs = (try? FileManager.default.contentsOfDirectory(atPath: "/usr/lib")) ?? []
        let hasGTK4 = typelibs.contains { FileManager.default.fileExists(atPath: "/usr/lib/\($0)/girepository-1.0/Gtk-4.0.typelib") }
        guard hasGTK4 else { return "missing Gtk-4.0.typelib (gir1.2-gtk-4.0): run make test-deps" }
        return HeadlessSession.missing([
            "/usr/bin/gnome-shell", "/usr/libexec/xdg-desktop-portal-gnome", "/usr/bin/gsettings", "/usr/bin/python3",
            "/usr/lib/python3/dist-packages/dbusmock", "/usr/lib/python3/dist-packages/pyatspi", "/usr/lib/python3/dist-packages/gi",
        ])
    }
}
