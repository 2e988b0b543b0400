import Foundation

/// The one keystroke that pastes the clipboard into the focused window: Ctrl+V, or Ctrl+Shift+V where the window is
/// a terminal's, which would take Ctrl+V as a character. A terminal is told by the name of the window's process:
/// found with xdotool on X11 and with swaymsg on sway; on other Wayland compositors the window cannot be told, and
/// Ctrl+V is pressed.
enum PasteKeystroke: Sendable {
    /// wtype on a Wayland compositor, with swaymsg where it is installed.
    case wtype(HelperProgram, swaymsg: HelperProgram?)
    /// xdotool on X11.
    case xdotool(HelperProgram)
    /// The RemoteDesktop portal, on KDE: its compositor offers a clipboard (data-control) but no virtual keyboard.
    case portal(PortalKeyboard)

    /// Terminals, by the name of their process (`/proc/PID/comm`, cut at 15 bytes), that paste the clipboard on
    /// Ctrl+Shift+V. xterm is one only with `XTerm*VT100.translations: #override Shift Ctrl <Key>V:
    /// insert-selection(CLIPBOARD)` in its resources; it is here all the same, as Ctrl+V would put a control
    /// character into it.
    static let terminals: Set<String> = [
        "alacritty", "foot", "ghostty", "gnome-terminal-", "kgx", "kitty", "konsole", "lxterminal", "mate-terminal", "qterminal",
        "sakura", "st", "terminator", "terminology", "tilix", "wezterm-gui", "xfce4-terminal", "xterm",
    ]

    /// Presses the paste keystroke for the focused window.
    /// - Returns: the keystroke, as the user would name it.
    /// - Throws: `DeliveryError` when the key tool fails or hangs.
    func press(environment: [String: String], timeLimit: Duration) async throws(DeliveryError) -> String {
        let inTerminal = await focusedProcessName(environment: environment, timeLimit: timeLimit).map(Self.terminals.contains) ?? false
        let modifiers = inTerminal ? ["ctrl", "shift"] : ["ctrl"]
        let keystroke = inTerminal ? "Ctrl+Shift+V" : "Ctrl+V"
        let (program, arguments): (HelperProgram, [String])
        switch self {
        case .portal(let keyboard):
            try await keyboard.pressPaste()
            return keystroke
        case .wtype(let wtype, _):
            (program, arguments) = (wtype, modifiers.flatMap { ["-M", $0] } + ["-k", "v"] + modifiers.reversed().flatMap { ["-m", $0] })
        // --clearmodifiers: a modifier still held from the shortcut that sent the recording would change the keystroke.
        case .xdotool(let xdotool):
            (program, arguments) = (xdotool, ["key", "--clearmodifiers", (modifiers + ["v"]).joined(separator: "+")])
        }
        let ending = try await program.run(arguments, input: "", environment: environment, timeLimit: timeLimit)
        guard ending.status == 0 else {
            throw DeliveryError(
                "\(program.name) could not press \(keystroke) to paste: "
                    + ending.failure)
        }
        return keystroke
    }

    /// The process name of the focused window, or nil where it cannot be told.
    private func focusedProcessName(environment: [String: String], timeLimit: Duration) async -> String? {
        let processID: String?
        switch self {
        case .xdotool(let xdotool):
            let found = try? await xdotool.run(
                ["getwindowfocus", "getwindowpid"], input: "", environment: environment, timeLimit: timeLimit)
            processID = found?.status == 0 ? found?.output.trimmingCharacters(in: .whitespacesAndNewlines) : nil
        case .portal: return nil
        case .wtype(_, let swaymsg):
            guard let swaymsg, let socket = Self.swaySocket(environment: environment) else { return nil }
            let tree = try? await swaymsg.run(["-s", socket, "-t", "get_tree"], input: "", environment: environment, timeLimit: timeLimit)
            processID = tree?.status == 0 ? tree.flatMap { Self.focusedProcessID(inSwayTree: $0.output) } : nil
        }
        guard let processID, Int32(processID) != nil else { return nil }
        return (try? String(contentsOfFile: "/proc/\(processID)/comm", encoding: .utf8))?.trimmingCharacters(in: .newlines)
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
        func focused(in node: [String: Any]) -> Int? {
            if node["focused"] as? Bool == true { return node["pid"] as? Int }
            let children = (node["nodes"] as? [[String: Any]] ?? []) + (node["floating_nodes"] as? [[String: Any]] ?? [])
            return children.lazy.compactMap(focused(in:)).first
        }
        return ((try? JSONSerialization.jsonObject(with: Data(json.utf8))) as? [String: Any]).flatMap(focused(in:)).map(String.init)
    }
}
