/// Pastes a text into the focused window: the text on the clipboard for one paste, one paste keystroke, and the
/// clipboard's previous text put back once the window has taken it. No character is typed, so the keyboard layout
/// does not matter, and a long text arrives at once (typed key by key, 2 000 characters take seconds).
///
/// Not where a clipboard manager reads each new clipboard (`wl-paste --watch cliphist store`): it takes the one
/// paste, the window pastes nothing, and the paste counts as served all the same. A previous clipboard that is not
/// text (an image) or larger than 256 KiB is not put back.
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

    /// Returns once the window has taken the whole text and the previous clipboard is back. A previous clipboard
    /// that cannot be put back does not fail the delivery: the text has arrived.
    public func deliver(_ text: String) async throws(DeliveryError) {
        let previous = await currentClipboardText()
        let copy = try await OnePasteCopy(text, copier: copier, environment: session.environment, timeLimit: timeLimit)
        let keystroke = try await self.keystroke.press(environment: session.environment, timeLimit: timeLimit)
        guard await copy.served(within: pasteTime) else {
            throw DeliveryError(
                "The focused window did not paste on \(keystroke) within \(pasteTime.inSeconds): click into the field to write "
                    + "in, or choose another way of typing.")
        }
        if let previous {
            try? await ClipboardTarget(copier: copier, session: session, timeLimit: timeLimit).deliver(previous)
        }
    }

    /// How long reading the clipboard may take: wl-paste answers in about 10 ms, but on KWin 5.27 an empty clipboard
    /// gets no answer at all (wl-paste waited until killed), and every paste would wait for it.
    static let clipboardReadTime = Duration.seconds(1)

    /// The clipboard's text, or nil where it is empty, not text, unreachable, too large to keep or not read in time.
    private func currentClipboardText() async -> String? {
        let (program, arguments) =
            switch tools {
            // `--type text`: any of the text types, none other.
            case .wayland(_, let wlPaste, _, _), .waylandThroughPortal(_, let wlPaste, _): (wlPaste, ["--no-newline", "--type", "text"])
            case .x11(let xclip, _): (xclip, ["-selection", "clipboard", "-out"])
            }
        guard
            let read = try? await program.run(
                arguments, input: "", environment: session.environment, timeLimit: min(timeLimit, Self.clipboardReadTime)),
            read.status == 0, !read.output.isEmpty,
            // Decoded, a cut-off last character may have changed length by a few bytes.
            read.output.utf8.count < HelperProgram.outputLimit - 4
        else { return nil }
        return read.output
    }

    private var copier: ClipboardTarget.Copier {
        switch tools {
        case .wayland(let wlCopy, _, _, _), .waylandThroughPortal(let wlCopy, _, _): .wlCopy(wlCopy)
        case .x11(let xclip, _): .xclip(xclip)
        }
    }

    private var keystroke: PasteKeystroke {
        switch tools {
        case .wayland(_, _, let wtype, let swaymsg): .wtype(wtype, swaymsg: swaymsg)
        case .waylandThroughPortal(_, _, let portal): .portal(portal)
        case .x11(_, let xdotool): .xdotool(xdotool)
        }
    }
}
