/// Types into the focused window of an X11 session through the XTEST extension, with `xdotool`. Characters that are
/// outside the layout are first bound to spare keys with `xmodmap` (see `SpareKeys`): left to xdotool, which binds
/// one and unbinds it right after the key, a busy client dropped some (8 to 14 of 15 texts beside two busy cores;
/// bound first, 0 of 45). A text with more of them than spare keys (19 on Xvfb) is refused: paste it instead.
/// Keys bound for an earlier text are bound again only a second after it was typed, which may delay a text that
/// follows at once.
public struct XTestTarget: TextTarget {
    public var method: DeliveryMethod { .xtest }

    private let xdotool: HelperProgram
    private let xmodmap: HelperProgram?
    private let session: DesktopSession
    private let startUp: Duration

    /// - Parameters:
    ///   - xdotool: the program, found when the session was probed.
    ///   - xmodmap: the program that binds spare keys; without it xdotool binds them itself, less reliably.
    ///   - session: whose `DISPLAY` and `XAUTHORITY` reach the X server.
    ///   - startUp: how long xdotool may take beyond a pause per character before it is killed as hung.
    public init(xdotool: HelperProgram, xmodmap: HelperProgram?, session: DesktopSession, startUp: Duration = .seconds(10)) {
        self.xdotool = xdotool
        self.xmodmap = xmodmap
        self.session = session
        self.startUp = startUp
    }

    public func deliver(_ text: String) async throws(DeliveryError) {
        // Also after a failure: some of the keys may have been pressed.
        defer { SpareKeys.shared.typed(text, on: session.environment["DISPLAY"] ?? "") }
        if let xmodmap {
            try await SpareKeys.shared.bind(
                charactersOf: text, xmodmap: xmodmap, environment: session.environment, timeLimit: startUp)
        }
        // `--file -`: the text comes on standard input, never read as options. `--clearmodifiers`: a modifier still
        // held from the shortcut that sent the recording would turn letters into shortcuts. The default pause
        // between keys stays: with none, xdotool garbled characters it had to bind a key for.
        let ending = try await xdotool.run(
            ["type", "--clearmodifiers", "--file", "-"], input: text, environment: session.environment,
            timeLimit: TypingTime.limit(for: text, startingWithin: startUp))
        guard ending.status == 0 else {
            throw DeliveryError(
                "xdotool could not type: \(ending.failure); "
                    + "check that the X display \(session.environment["DISPLAY"] ?? "(none)") is reachable.")
        }
    }
}
