/// Pastes a text into the focused window: the text on the clipboard for one paste, one paste keystroke, and the
/// clipboard's previous contents put back once the window has taken it (`ClipboardKeeper`). No character is typed,
/// so the keyboard layout does not matter, and a long text arrives at once (typed key by key, 2 000 characters take
/// seconds).
///
/// Not where a clipboard manager reads each new clipboard (`wl-paste --watch cliphist store`): it takes the one
/// paste, the window pastes nothing, and the paste counts as served all the same. wl-copy and xclip offer one type
/// each: of a previous clipboard with several (text and HTML), the text is put back.
public struct PasteTarget: TextTarget {
    public var method: DeliveryMethod { .paste }

    /// The programs that paste, found when the session was probed.
    public enum Tools: Sendable {
        /// wl-clipboard's `wl-copy` and `wl-paste`, and `wtype`; `swaymsg` where installed, to tell a terminal on sway.
        case wayland(wlCopy: HelperProgram, wlPaste: HelperProgram, wtype: HelperProgram, swaymsg: HelperProgram?)
        /// wl-clipboard, and the keystroke through the RemoteDesktop portal: KDE.
        case waylandThroughPortal(wlCopy: HelperProgram, wlPaste: HelperProgram, portal: PortalKeyboard)
        /// `xclip`, and `xdotool`, which also tells a terminal.
        case x11(xclip: HelperProgram, xdotool: HelperProgram)
    }

    private let tools: Tools
    private let session: DesktopSession
    private let timeLimit: Duration
    private let pasteTime: Duration

    /// - Parameters:
    ///   - tools: the programs.
    ///   - session: whose displays reach the clipboard and the keyboard.
    ///   - timeLimit: how long each program may take before it is killed as hung.
    ///   - pasteTime: how long the focused window may take to ask for the clipboard after the keystroke.
    public init(tools: Tools, session: DesktopSession, timeLimit: Duration = .seconds(10), pasteTime: Duration = .seconds(5)) {
        self.tools = tools
        self.session = session
        self.timeLimit = timeLimit
        self.pasteTime = pasteTime
    }

    /// Returns once the window has taken the whole text and the previous clipboard is back (see `ClipboardKeeper`:
    /// it is put back after a failed paste too, and not over something copied meanwhile).
    public func deliver(_ text: String) async throws(DeliveryError) {
        let keeper = clipboardKeeper
        let kept = await keeper.keep(offering: text)
        do throws(DeliveryError) {
            let copy = try await OnePasteCopy(text, copier: copier, environment: session.environment, timeLimit: timeLimit)
            let keystroke = try await self.keystroke.press(environment: session.environment, timeLimit: timeLimit)
            guard await copy.served(within: pasteTime) else {
                throw DeliveryError(
                    "The focused window did not paste on \(keystroke) within \(pasteTime.inSeconds): click into the field to write "
                        + "in, or choose another way of typing.")
            }
        } catch {
            await keeper.putBack(kept)
            throw error
        }
        await keeper.putBack(kept)
    }

    /// What keeps the user's clipboard across a paste, and puts back at start one a killed notulad left.
    public var clipboardKeeper: ClipboardKeeper {
        ClipboardKeeper(access: clipboard, environment: session.environment, timeLimit: timeLimit)
    }

    private var clipboard: ClipboardAccess {
        switch tools {
        case .wayland(let wlCopy, let wlPaste, _, _), .waylandThroughPortal(let wlCopy, let wlPaste, _):
            .wayland(wlCopy: wlCopy, wlPaste: wlPaste)
        case .x11(let xclip, _): .x11(xclip: xclip)
        }
    }

    private var copier: ClipboardTarget.Copier { clipboard.copier }

    private var keystroke: PasteKeystroke {
        switch tools {
        case .wayland(_, _, let wtype, let swaymsg): .wtype(wtype, swaymsg: swaymsg)
        case .waylandThroughPortal(_, _, let portal): .portal(portal)
        case .x11(_, let xdotool): .xdotool(xdotool)
        }
    }
}
