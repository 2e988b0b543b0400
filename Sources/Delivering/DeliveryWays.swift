/// The ways text can reach the user in one session, each found or missing with what to do about it.
public struct DeliveryWays: Sendable {
    /// Typing into the focused window, per method.
    public let typing: [DeliveryMethod: Result<any TextTarget, DeliveryError>]
    /// The clipboard.
    public let clipboard: Result<any TextTarget, DeliveryError>
    /// What tells the program with the keyboard focus; nil where nothing can.
    public let focus: (any FocusReading)?

    public init(
        typing: [DeliveryMethod: Result<any TextTarget, DeliveryError>], clipboard: Result<any TextTarget, DeliveryError>,
        focus: (any FocusReading)? = nil
    ) {
        self.typing = typing
        self.clipboard = clipboard
        self.focus = focus
    }

    /// Longer texts are pasted where the session allows: typed, 200 characters took over a second with wtype and
    /// xdotool (docs/BENCHMARKS.md); pasted, about 0.1 s at any length.
    static let longestTypedText = 200

    /// The way `choice` types `text` in `session`.
    /// - Throws: Why there is none: the method missing, or no way known for the session.
    func typist(_ choice: TypingChoice, in session: DesktopSession, for text: String) throws(DeliveryError) -> any TextTarget {
        let method: DeliveryMethod
        switch choice {
        case .forced(let forced): method = forced
        case .automatic:
            if Self.isBetterPasted(text, in: session), let paste = try? typing[.paste]?.get() { return paste }
            guard let chosen = Self.automaticMethod(for: session) else {
                throw DeliveryError(
                    "No graphical session to type into: neither WAYLAND_DISPLAY nor DISPLAY is set for notulad or the user manager "
                        + "(run \"dbus-update-activation-environment --systemd WAYLAND_DISPLAY DISPLAY XDG_CURRENT_DESKTOP\" in the session)."
                )
            }
            method = chosen
        }
        guard let found = typing[method] else { throw DeliveryError("Typing through \(method.rawValue) is not available here.") }
        return try found.get()
    }

    /// A long text, on any desktop; on one typed through the portal (KDE, where pasting is available), a text with
    /// characters that go through the Unicode entry, which Qt windows do not take.
    static func isBetterPasted(_ text: String, in session: DesktopSession) -> Bool {
        text.count > longestTypedText || (automaticMethod(for: session) == .portal && PortalKeystrokes.needsUnicodeEntry(text))
    }

    /// Pasting, after the session's own way refused, where that way is a helper program and pasting is available:
    /// not after the portal, as pasting there (KDE) presses its key through the same portal.
    func pasteInstead(in session: DesktopSession) -> (any TextTarget)? {
        guard let method = Self.automaticMethod(for: session), method != .portal else { return nil }
        return try? typing[.paste]?.get()
    }

    /// The portal where the desktop offers one (GNOME, KDE: their compositors have no virtual keyboard for
    /// clients), the virtual-keyboard protocol on other Wayland compositors, XTEST on X11.
    static func automaticMethod(for session: DesktopSession) -> DeliveryMethod? {
        switch session.kind {
        case .wayland: session.isDesktop("GNOME") || session.isDesktop("KDE") ? .portal : .virtualKeyboard
        case .x11: .xtest
        case .unknown: nil
        }
    }
}
