import DBus
import Foundation

/// A real KDE Plasma 5.27 compositor, KWin, headless (its virtual output), with xdg-desktop-portal and its KDE
/// backend on KWin's own session bus: the desktop a KDE user's notulad types into. The KDE portal starts a
/// remote-control session for the keyboard without asking (it shows a notification instead).
///
/// Its session: see `HeadlessSession`. Started once per test process, by the first test that asks.
public final class PlasmaHost: Sendable {
    public typealias Unavailable = HeadlessSession.Unavailable

    let session: HeadlessSession
    /// The session bus of KWin and the portals.
    public var busAddress: String { session.busAddress }
    /// The environment of the session's programs, as notulad would read it from the user manager.
    public var environment: [String: String] { session.environment }

    /// The host of this test process: started by the first caller, shared by all.
    public static func shared() async -> Result<PlasmaHost, Unavailable> { await starting.value }

    private static let starting = Task { () -> Result<PlasmaHost, Unavailable> in
        if let missing = HeadlessSession.missing([
            "/usr/bin/kwin_wayland", "/usr/lib/x86_64-linux-gnu/libexec/xdg-desktop-portal-kde", "/usr/bin/python3",
        ])
            ?? missingQtClient()
        {
            return .failure(Unavailable(reason: missing))
        }
        let session: HeadlessSession
        do {
            session = try HeadlessSession(
                named: "plasma",
                desktop: [
                    "XDG_CURRENT_DESKTOP": "KDE", "XDG_SESSION_DESKTOP": "KDE", "KDE_FULL_SESSION": "true", "KDE_SESSION_VERSION": "5",
                ])
        } catch {
            return .failure(Unavailable(reason: "KWin's session could not be made: \(error)"))
        }
        do {
            let host = try await PlasmaHost(in: session)
            session.cameUp()
            return .success(host)
        } catch {
            return .failure(Unavailable(reason: "KWin did not come up: \(error) (logs in \(session.logFolder.path))"))
        }
    }

    private init(in session: HeadlessSession) async throws {
        self.session = session
        let programs = URL(fileURLWithPath: session.environment["XDG_RUNTIME_DIR"]!).appendingPathComponent("bin")
        try FileManager.default.createDirectory(at: programs, withIntermediateDirectories: true)
        // Debian's kwin_wayland carries the file capability cap_sys_resource, which a container's bounding set may
        // lack: exec then fails with EPERM. A copy carries no capability.
        let kwin = programs.appendingPathComponent("kwin_wayland")
        try FileManager.default.copyItem(atPath: "/usr/bin/kwin_wayland", toPath: kwin.path)
        let config = session.home.appendingPathComponent(".config")
        try FileManager.default.createDirectory(at: config, withIntermediateDirectories: true)
        // No input method: keys go straight to the window.
        try Data("[Wayland]\nInputMethod=\n".utf8).write(to: config.appendingPathComponent("kwinrc"))
        try session.giveToUser(session.home)
        try session.giveToUser(programs)

        try await session.startSessionBus()
        let client = try await session.connect()
        defer { Task { await client.close() } }
        try await launch(
            session.sessionProcess(
                // Screenshots for any caller: the tests take them through ScreenShot2 (`PlasmaPanel`), not spectacle.
                [
                    "/usr/bin/env", "KWIN_SCREENSHOT_NO_PERMISSION_CHECKS=1", kwin.path, "--virtual", "--width", "1280", "--height", "800",
                    "--no-lockscreen",
                ],
                log: "kwin"),
            owning: "org.kde.KWin", watchedFrom: client)
        let display = URL(fileURLWithPath: session.environment["XDG_RUNTIME_DIR"]!).appendingPathComponent("wayland-0")
        try await poll(within: .seconds(30)) {
            FileManager.default.fileExists(atPath: display.path)
        } otherwise: {
            CommandFailed(command: ["kwin_wayland"], status: 0, errorOutput: "owns org.kde.KWin but opened no Wayland socket")
        }
        try await launch(session.portalFrontend(), owning: "org.freedesktop.portal.Desktop", watchedFrom: client)
    }

    /// A new connection to the session bus, as the test's notulad would have.
    public func connect() async throws -> Bus { try await session.connect() }

    /// Opens a typing target of `toolkit` and returns once its window has the keyboard focus (KWin focuses a new
    /// window).
    public func openTypingTarget(_ toolkit: TypingTarget.Toolkit) async throws -> TypingTarget {
        try await TypingTarget(toolkit, in: session) { [session] title in TypingTarget.marksItselfFocused(title, in: session) }
    }

    /// Starts Klipper, KDE's clipboard manager (the standalone `klipper` of plasma-workspace, which keeps the same
    /// history as the panel's applet), and returns once it is on the bus as `org.kde.klipper`.
    public func startKlipper() async throws {
        let client = try await session.connect()
        defer { Task { await client.close() } }
        for attempt in 1...2 {
            // KDE_DEBUG: a crash ends Klipper, and no crash dialog (DrKonqi) takes the focus.
            let klipper = try session.sessionProcess(["/usr/bin/env", "KDE_DEBUG=1", "/usr/bin/klipper"], log: "klipper-\(attempt)")
            try await launch(klipper, owning: "org.kde.klipper", watchedFrom: client)
            // In 2 of 6 desktop passes (never in 15 runs of the suite alone) Klipper left the bus within 0.3 s of taking
            // its name, saying nothing: it is started once more, and the run says so.
            try await poll(within: .seconds(10)) { !klipper.isRunning || (try? self.klipperHistory()) != nil } otherwise: {
                CommandFailed(command: ["klipper"], status: 0, errorOutput: "Klipper owns its name but never answered on /klipper")
            }
            if klipper.isRunning { return }
            print("Klipper ended \(klipper.terminationReason == .uncaughtSignal ? "by signal" : "with status") \(klipper.terminationStatus) after taking its name: \(log(of: "klipper-\(attempt)"))")
        }
        throw CommandFailed(command: ["klipper"], status: 0, errorOutput: "Klipper ended twice after taking its name")
    }

    private func log(of name: String) -> String {
        String((try? String(contentsOf: session.logFolder.appendingPathComponent("\(name).log"), encoding: .utf8))?.suffix(2000) ?? "")
    }

    /// The texts of Klipper's history, the newest first.
    public func klipperHistory() throws -> [String] {
        let listed: String
        do {
            listed = try output(
                of: [
                    "/usr/bin/gdbus", "call", "--session", "--dest", "org.kde.klipper", "--object-path", "/klipper", "--method",
                    "org.kde.klipper.klipper.getClipboardHistoryMenu",
                ], environment: environment)
        } catch let failure as CommandFailed {
            // What Klipper printed is removed with the session.
            throw CommandFailed(
                command: failure.command, status: failure.status,
                errorOutput: "\(failure.errorOutput); klipper printed: \(log(of: "klipper-1")) \(log(of: "klipper-2"))")
        }
        // gdbus prints `(['newest', 'older'],)`: the tests' texts hold no quote.
        return listed.split(separator: "'").enumerated().filter { $0.offset % 2 == 1 }.map { String($0.element) }
    }

    private static func missingQtClient() -> String? {
        FileManager.default.fileExists(atPath: "/usr/lib/python3/dist-packages/PyQt5")
            ? nil : "missing PyQt5 (python3-pyqt5) for the Qt typing target: run make test-deps"
    }
}
