import DBus
import FoundationEssentials

/// The program whose window has the keyboard focus, as far as the session lets it be told.
public enum FocusedProgram: Sendable, Equatable {
    /// A terminal's, by its process name (or app id): Return there runs the line typed so far.
    case terminal(String)
    /// Another program's, by its process name (or app id).
    case other(String)
    /// Not known: no way to ask this session (GNOME without Notula's extension, KDE on Wayland), or the asking failed.
    case unknown
}

/// What tells the focused program; a seam, so that `Dictation` is tested without a desktop.
public protocol FocusReading: Sendable {
    func focused() async -> FocusedProgram
}

/// Tells the focused program from its process: the `pid` of the focused node of sway's tree (`swaymsg -t get_tree`),
/// of the X window with the input focus (`xdotool getwindowfocus getwindowpid`: its `_NET_WM_PID`, so also under
/// i3 and any X11 window manager), or of the window GNOME Shell describes (`GnomeShellFocus`) or KWin reports
/// (`KWinFocus`), named by
/// `/proc/PID/comm`; and, where the compositor gives one, from the window's app id.
public struct FocusFinder: FocusReading {
    enum Reader: Sendable {
        case sway(swaymsg: HelperProgram)
        case x11(xdotool: HelperProgram)
        case gnomeShell(Bus)
        case kwin(KWinFocus)
    }

    let reader: Reader
    let environment: [String: String]
    let timeLimit: Duration

    init(_ reader: Reader, environment: [String: String], timeLimit: Duration = .seconds(5)) {
        self.reader = reader
        self.environment = environment
        self.timeLimit = timeLimit
    }

    /// Terminals, by the name of their process (`/proc/PID/comm`, cut at 15 bytes: gnome-terminal-server is
    /// `gnome-terminal-`).
    static let terminals: Set<String> = [
        "alacritty", "blackbox", "contour", "cool-retro-term", "foot", "ghostty", "gnome-terminal-", "guake", "kgx", "kitty",
        "konsole", "lxterminal", "mate-terminal", "mlterm", "ptyxis", "ptyxis-agent", "qterminal", "rio", "roxterm", "rxvt",
        "sakura", "st", "terminator", "terminology", "tilda", "tilix", "urxvt", "urxvtd", "wezterm-gui", "xfce4-terminal",
        "xterm", "yakuake", "zutty",
    ]

    public func focused() async -> FocusedProgram {
        guard let window = await focusedWindow() else { return .unknown }
        let name = window.processID.flatMap(Self.processName(of:))
        if let name, Self.terminals.contains(name) { return .terminal(name) }
        if window.hasTerminalAppID { return .terminal(window.appIDs[0]) }
        guard let known = name ?? window.appIDs.first else { return .unknown }
        return .other(known)
    }

    private func focusedWindow() async -> FocusedWindow? {
        let processID: String?
        switch reader {
        case .gnomeShell(let bus):
            return await GnomeShellFocus.focusedWindow(on: bus, timeLimit: timeLimit)
        case .kwin(let kwin):
            return kwin.focusedWindow()
        case .x11(let xdotool):
            let found = try? await xdotool.run(
                ["getwindowfocus", "getwindowpid"], input: "", environment: environment, timeLimit: timeLimit)
            processID = found?.status == 0 ? found?.output.trimming(where: \.isWhitespace) : nil
        case .sway(let swaymsg):
            guard let socket = Self.swaySocket(environment: environment) else { return nil }
            let tree = try? await swaymsg.run(["-s", socket, "-t", "get_tree"], input: "", environment: environment, timeLimit: timeLimit)
            processID = tree?.status == 0 ? tree.flatMap { Self.focusedProcessID(inSwayTree: $0.output) } : nil
        }
        guard let processID, let number = Int32(processID), number > 0 else { return nil }
        return FocusedWindow(processID: number)
    }

    private static func processName(of processID: Int32) -> String? {
        guard processID > 0 else { return nil }
        return (try? String(contentsOfFile: "/proc/\(processID)/comm", encoding: .utf8))?.trimming(where: \.isNewline)
    }

    /// sway's IPC socket: `SWAYSOCK`, or the newest `sway-ipc.*.sock` in the runtime folder, as notulad may have been
    /// started before sway exported its variables.
    private static func swaySocket(environment: [String: String]) -> String? {
        if let socket = environment["SWAYSOCK"] { return socket }
        guard let runtime = environment["XDG_RUNTIME_DIR"],
            let names = try? FileManager.default.contentsOfDirectory(atPath: runtime)
        else { return nil }
        let modified = { (name: String) in
            (try? FileManager.default.attributesOfItem(atPath: "\(runtime)/\(name)")[.modificationDate] as? Date) ?? .distantPast
        }
        return names.filter { $0.hasPrefix("sway-ipc.") && $0.hasSuffix(".sock") }.max { modified($0) < modified($1) }
            .map { "\(runtime)/\($0)" }
    }

    /// The `pid` of the node of `get_tree` that has the focus.
    private static func focusedProcessID(inSwayTree json: String) -> String? {
        (try? JSONDecoder().decode(SwayNode.self, from: Data(json.utf8)))?.focusedProcessID.map(String.init)
    }

    /// What is read of a node of sway's tree.
    private struct SwayNode: Decodable {
        let focused: Bool?
        let pid: Int?
        let nodes: [SwayNode]?
        let floatingNodes: [SwayNode]?

        private enum CodingKeys: String, CodingKey {
            case focused, pid, nodes
            case floatingNodes = "floating_nodes"
        }

        var focusedProcessID: Int? {
            if focused == true { return pid }
            return ((nodes ?? []) + (floatingNodes ?? [])).lazy.compactMap(\.focusedProcessID).first
        }
    }
}
