/// The one keystroke that pastes the clipboard into the focused window: Ctrl+V, or Ctrl+Shift+V where the window is
/// a terminal's, which would take Ctrl+V as a character (`FocusFinder` tells one: with xdotool on X11 and with swaymsg
/// on sway; on other Wayland compositors the window cannot be told, and Ctrl+V is pressed). xterm pastes on
/// Ctrl+Shift+V only with `XTerm*VT100.translations: #override Shift Ctrl <Key>V: insert-selection(CLIPBOARD)` in its
/// resources; it counts all the same, as Ctrl+V would put a control character into it.
public enum PasteKeystroke: Sendable {
    /// wtype on a Wayland compositor, with swaymsg where it is installed.
    case wtype(HelperProgram, swaymsg: HelperProgram?)
    /// xdotool on X11.
    case xdotool(HelperProgram)
    /// The RemoteDesktop portal, on KDE: its compositor offers a clipboard (data-control) but no virtual keyboard.
    case portal(PortalKeyboard)

    /// Presses the paste keystroke for the focused window.
    /// - Returns: the keystroke, as the user would name it, and when its first key went down (or the tool that
    ///   presses it started): what a clipboard manager asks for before is no paste.
    /// - Throws: `DeliveryError` when the key tool fails or hangs.
    func press(environment: [String: String], timeLimit: Duration) async throws(DeliveryError) -> (
        name: String, start: ContinuousClock.Instant
    ) {
        let focused = await focus(environment: environment, timeLimit: timeLimit)?.focused()
        let inTerminal = if case .terminal = focused { true } else { false }
        let modifiers = inTerminal ? ["ctrl", "shift"] : ["ctrl"]
        let keystroke = inTerminal ? "Ctrl+Shift+V" : "Ctrl+V"
        let (program, arguments): (HelperProgram, [String])
        switch self {
        case .portal(let keyboard):
            return (keystroke, try await keyboard.pressPaste())
        case .wtype(let wtype, _):
            (program, arguments) = (wtype, modifiers.flatMap { ["-M", $0] } + ["-k", "v"] + modifiers.reversed().flatMap { ["-m", $0] })
        // --clearmodifiers: a modifier still held from the shortcut that sent the recording would change the keystroke.
        case .xdotool(let xdotool):
            (program, arguments) = (xdotool, ["key", "--clearmodifiers", (modifiers + ["v"]).joined(separator: "+")])
        }
        let start = ContinuousClock.now
        let ending = try await program.run(arguments, input: "", environment: environment, timeLimit: timeLimit)
        guard ending.status == 0 else {
            throw DeliveryError(
                "\(program.name) could not press \(keystroke) to paste: "
                    + ending.failure)
        }
        return (keystroke, start)
    }

    /// What tells a terminal, where one can.
    private func focus(environment: [String: String], timeLimit: Duration) -> FocusFinder? {
        switch self {
        case .xdotool(let xdotool): FocusFinder(.x11(xdotool: xdotool), environment: environment, timeLimit: timeLimit)
        case .wtype(_, let swaymsg): swaymsg.map { FocusFinder(.sway(swaymsg: $0), environment: environment, timeLimit: timeLimit) }
        case .portal: nil
        }
    }
}
