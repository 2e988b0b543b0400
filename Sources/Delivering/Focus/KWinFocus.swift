import DBus
import NotulaContract
import FoundationEssentials
import Glibc
import Synchronization

/// Tells the focused window on KDE Plasma's Wayland session, where KWin answers no program's question about it: a KWin
/// script notulad has KWin load over `org.kde.KWin /Scripting` reports each window KWin activates to notulad's own
/// connection (`Report` of `org.notula.Notula1.FocusReport`), and a report counts only from the current owner of
/// `org.kde.KWin`. The script names notulad's unique name, not its well-known one, so that once notulad has left
/// it starts nobody; a new notulad unloads it by its plugin name and loads its own.
public final class KWinFocus: Sendable {
    static let kwin: BusName = "org.kde.KWin"
    static let scriptingPath = ObjectPath("/Scripting")!
    static let path = NotulaBus.focusReportPath
    static let interface = NotulaBus.FocusReport.name
    static let pluginName = "notula-focus"
    /// An app id or class longer than this is no terminal's: dropped, not kept.
    static let longestName = 256

    private let bus: Bus
    /// The newest report of KWin's, by the order of its arrival.
    private let latest = Mutex<(order: Int, window: FocusedWindow?)>((0, nil))
    private let arrivals = Mutex(0)

    private init(bus: Bus) { self.bus = bus }

    /// Exports the report's object on `bus`, writes the script into `scriptFolder` (0700, the file 0600) and has KWin
    /// run it in place of any copy loaded before. Nil where KWin did not load it (no KWin on the bus).
    public static func start(on bus: Bus, scriptFolder: String) async -> KWinFocus? {
        await start(on: bus, scriptFolder: scriptFolder, readableBy: nil)
    }

    /// `readableBy`: a user to give the folder and the script to, for a test whose KWin runs as another user.
    static func start(on bus: Bus, scriptFolder: String, readableBy owner: uid_t?) async -> KWinFocus? {
        let focus = KWinFocus(bus: bus)
        await bus.export(path, interfaces: [focus.reportInterface()])
        let script = scriptFolder + "/focus-report.js"
        do {
            try FileManager.default.createDirectory(
                atPath: scriptFolder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            guard
                FileManager.default.createFile(
                    atPath: script, contents: Data(scriptText(reportingTo: await bus.uniqueName).utf8),
                    attributes: [.posixPermissions: 0o600])
            else { return nil }
            if let owner {
                chown(scriptFolder, owner, owner)
                chown(script, owner, owner)
            }
            try await reload(script, on: bus)
        } catch {
            return nil
        }
        return focus
    }

    /// The window KWin reported last; nil before its first report.
    func focusedWindow() -> FocusedWindow? { latest.withLock { $0.window } }

    private static func reload(_ script: String, on bus: Bus) async throws {
        func scripting(_ member: MemberName, _ arguments: [Value] = []) async throws -> Message {
            try await bus.call(
                MethodCall(
                    destination: kwin, path: scriptingPath, interface: "org.kde.kwin.Scripting", member: member, arguments: arguments,
                    autoStart: false), timeout: .seconds(5))
        }
        _ = try await scripting("unloadScript", [.string(pluginName)])
        // KWin drops an unloaded script on its next turn of the event loop; till then the name counts as loaded.
        let deadline = ContinuousClock.now + .seconds(5)
        while try await scripting("isScriptLoaded", [.string(pluginName)]).argument(0, as: Bool.self), ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(20))
        }
        guard try await scripting("loadScript", [.string(script), .string(pluginName)]).argument(0, as: Int32.self) >= 0 else {
            throw BusError.failed("KWin did not load \(script)")
        }
        _ = try await scripting("start")
    }

    private func reportInterface() -> Interface {
        let report = Method(
            NotulaBus.FocusReport.Method.report.rawValue, inputs: [Argument("pid", "s"), Argument("resource_class", "s"), Argument("desktop_file", "s")]
        ) { [self] message throws(BusError) in
            let order = self.arrivals.withLock {
                $0 += 1; return $0
            }
            let sender = message.sender
            let window = Self.window(
                processID: try message.argument(0, as: String.self), names: [try message.argument(2), try message.argument(1)])
            return .later { () throws(BusError) -> [Value] in
                guard let sender, try await self.bus.owner(of: Self.kwin) == sender else {
                    throw BusError(.accessDenied, "Only KWin reports the focused window.")
                }
                self.latest.withLock { if order > $0.order { $0 = (order, window) } }
                return []
            }
        }
        return Interface(Self.interface, methods: [report])
    }

    private static func window(processID: String, names: [String]) -> FocusedWindow {
        FocusedWindow(
            processID: Int32(processID).flatMap { $0 > 0 ? $0 : nil },
            appIDs: names.filter { !$0.isEmpty && $0.utf8.count <= longestName })
    }

    /// The KWin script (KWin 5.27's JavaScript API): each activated window's pid, class and desktop file name.
    static func scriptText(reportingTo uniqueName: String) -> String {
        let service = String(decoding: (try? JSONEncoder().encode(uniqueName)) ?? Data("\"\"".utf8), as: UTF8.self)
        return """
            // Notula: tells notulad (\(uniqueName)) which window has the focus, so that it types no Return into a terminal.
            function report(client) {
                callDBus(\(service), "\(path.rawValue)", "\(interface.rawValue)", "Report",
                    client ? String(client.pid) : "0", client ? String(client.resourceClass) : "",
                    client ? String(client.desktopFileName) : "");
            }
            workspace.clientActivated.connect(report);
            report(workspace.activeClient);

            """
    }
}
