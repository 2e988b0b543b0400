/// Types into the focused window of a wlroots compositor (sway, Hyprland, river, labwc) through its virtual-keyboard
/// protocol, with `wtype`: wtype uploads a keymap of its own holding the text's characters, so the user's layout
/// does not matter.
public struct VirtualKeyboardTarget: TextTarget {
    public var method: DeliveryMethod { .virtualKeyboard }

    private let wtype: HelperProgram
    private let session: DesktopSession
    private let startUp: Duration

    /// - Parameters:
    ///   - wtype: the program, found when the session was probed.
    ///   - session: whose `WAYLAND_DISPLAY` and `XDG_RUNTIME_DIR` reach the compositor.
    ///   - startUp: how long wtype may take beyond a pause per character before it is killed as hung.
    public init(wtype: HelperProgram, session: DesktopSession, startUp: Duration = .seconds(10)) {
        self.wtype = wtype
        self.session = session
        self.startUp = startUp
    }

    public func deliver(_ text: String) async throws(DeliveryError) {
        // `-`: the text comes on standard input, where no character of it can be read as an option.
        let ending = try await wtype.run(
            ["-"], input: text, environment: session.environment, timeLimit: TypingTime.limit(for: text, startingWithin: startUp))
        guard ending.status == 0 else {
            throw DeliveryError(
                "wtype could not type: \(ending.failure); "
                    + "the compositor may not offer the virtual-keyboard protocol (GNOME and KDE do not: choose the portal).")
        }
    }
}
