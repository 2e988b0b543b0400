/// Types into the focused window of an X11 session through the XTEST extension, with `xdotool`. The layout's
/// characters arrive reliably (15 of 15 runs beside two busy cores). For a character the layout has no key for
/// (é on a US layout, Hangul, emoji) xdotool maps a spare key and maps it back right after pressing it; a client
/// that reads the key after the map-back drops the character (8 to 14 of 15 runs dropped one under that load,
/// none when idle). Such text is better pasted.
public struct XTestTarget: TextTarget {
    public var method: DeliveryMethod { .xtest }

    private let xdotool: HelperProgram
    private let session: DesktopSession
    private let startUp: Duration

    /// - Parameters:
    ///   - xdotool: the program, found when the session was probed.
    ///   - session: whose `DISPLAY` and `XAUTHORITY` reach the X server.
    ///   - startUp: how long xdotool may take beyond a pause per character before it is killed as hung.
    public init(xdotool: HelperProgram, session: DesktopSession, startUp: Duration = .seconds(10)) {
        self.xdotool = xdotool
        self.session = session
        self.startUp = startUp
    }

    public func deliver(_ text: String) async throws(DeliveryError) {
        // `--file -`: the text comes on standard input, never read as options. `--clearmodifiers`: a modifier still
        // held from the shortcut that sent the recording would turn letters into shortcuts. The default pause
        // between keys stays: with none, xdotool garbles characters it has to map a key for.
        let ending = try await xdotool.run(
            ["type", "--clearmodifiers", "--file", "-"], input: text, environment: session.environment,
            timeLimit: TypingTime.limit(for: text, startingWithin: startUp))
        guard ending.status == 0 else {
            throw DeliveryError(
                "xdotool could not type: \(ending.errorOutput.isEmpty ? "exit status \(ending.status)" : ending.errorOutput); "
                    + "check that the X display \(session.environment["DISPLAY"] ?? "(none)") is reachable.")
        }
    }
}
