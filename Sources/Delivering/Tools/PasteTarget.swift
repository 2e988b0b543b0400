/// Pastes a text into the focused window: the text on the clipboard for one paste, one paste keystroke, and the
/// clipboard's previous contents put back once the window has taken it (`ClipboardKeeper`). No character is typed,
/// so the keyboard layout does not matter, and a long text arrives at once (typed key by key, 2 000 characters take
/// seconds).
///
/// The text is offered as sensitive (`ClipboardOffer.dictation`), so that clipboard managers that honour the password
/// manager's hint (Klipper, cliphist) keep no copy. A manager reads each new clipboard at once, before the keystroke:
/// only what is asked for from the keystroke on is the paste (on X11, only what the focused window's program asks
/// for). Every type of a previous clipboard comes back.
public struct PasteTarget: TextTarget {
    public var method: DeliveryMethod { .paste }

    private let clipboard: any ClipboardOwner
    private let keystroke: PasteKeystroke
    private let session: DesktopSession
    private let timeLimit: Duration
    private let pasteTime: Duration

    /// - Parameters:
    ///   - clipboard: the session's clipboard.
    ///   - keystroke: what presses the paste keystroke.
    ///   - session: whose displays reach the keyboard, and whose runtime folder keeps the clipboard during a paste.
    ///   - timeLimit: how long each step may take before it is given up as hung.
    ///   - pasteTime: how long the focused window may take to ask for the clipboard after the keystroke.
    public init(
        clipboard: any ClipboardOwner, keystroke: PasteKeystroke, session: DesktopSession, timeLimit: Duration = .seconds(10),
        pasteTime: Duration = .seconds(5)
    ) {
        self.clipboard = clipboard
        self.keystroke = keystroke
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
            let copy = try await clipboard.take(.dictation(text), timeLimit: timeLimit)
            let keystroke = try await self.keystroke.press(environment: session.environment, timeLimit: timeLimit)
            guard await copy.served(since: keystroke.start, within: pasteTime) else {
                throw DeliveryError(
                    "The focused window did not paste on \(keystroke.name) within \(pasteTime.inSeconds): click into the field to write "
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
        ClipboardKeeper(clipboard: clipboard, environment: session.environment, timeLimit: timeLimit)
    }
}
