import DBus

/// The ways of delivering that go through a helper program, as far as the session and the installed programs allow:
/// each is a target, or the error that says what is missing (the desktop's support, or the Debian package to
/// install). The programs are looked up once, when this is made: at the probe of the session.
public struct HelperTargets: Sendable {
    private let session: DesktopSession
    private let wtype: HelperProgram?
    private let xdotool: HelperProgram?
    private let xmodmap: HelperProgram?
    private let swaymsg: HelperProgram?

    /// - Parameters:
    ///   - session: the graphical session to deliver to.
    ///   - searchPath: where to look for the programs, a `PATH` value.
    public init(session: DesktopSession, searchPath: String) {
        self.session = session
        wtype = HelperProgram.find("wtype", on: searchPath)
        xdotool = HelperProgram.find("xdotool", on: searchPath)
        xmodmap = HelperProgram.find("xmodmap", on: searchPath)
        swaymsg = HelperProgram.find("swaymsg", on: searchPath)
    }

    /// wtype: on a wlroots compositor; with `forced` (the user chose it) on any Wayland session.
    public func virtualKeyboard(forced: Bool = false) -> Result<any TextTarget, DeliveryError> {
        guard session.environment["WAYLAND_DISPLAY"] != nil, forced || session.kind == .wayland else {
            return .failure(DeliveryError("Typing through the virtual keyboard needs a Wayland session, and WAYLAND_DISPLAY is not set."))
        }
        if !forced, let desktop = ["GNOME", "KDE"].first(where: session.isDesktop) {
            return .failure(DeliveryError("\(desktop) does not offer the virtual-keyboard protocol: type through the portal."))
        }
        return program(wtype, "wtype", package: "wtype").map { VirtualKeyboardTarget(wtype: $0, session: session) }
    }

    /// xdotool, with xmodmap where it is installed (x11-xserver-utils): on an X11 session; with `forced` wherever
    /// `DISPLAY` is set (under Xwayland it reaches X clients only).
    public func xtest(forced: Bool = false) -> Result<any TextTarget, DeliveryError> {
        guard session.environment["DISPLAY"] != nil, forced || session.kind == .x11 else {
            return .failure(DeliveryError("Typing through XTEST needs an X11 session, and this is not one."))
        }
        return program(xdotool, "xdotool", package: "xdotool").map { XTestTarget(xdotool: $0, xmodmap: xmodmap, session: session) }
    }

    /// The clipboard of the session: Wayland's (not GNOME's, which has no data-control protocol), X11's.
    public func clipboard() -> Result<any TextTarget, DeliveryError> {
        switch session.kind {
        case .wayland:
            if session.isDesktop("GNOME") {
                return .failure(DeliveryError("GNOME on Wayland lets no program set the clipboard without its portal."))
            }
            return waylandClipboard().map { ClipboardTarget(clipboard: $0) }
        case .x11:
            return x11Clipboard().map { ClipboardTarget(clipboard: $0) }
        case .unknown:
            return .failure(DeliveryError("No graphical session was found: neither WAYLAND_DISPLAY nor DISPLAY is set."))
        }
    }

    /// Paste (the clipboard and one keystroke): data control and wtype on a wlroots compositor, data control and
    /// `portal`'s keystroke on KDE (not GNOME: no data-control protocol); notulad's own clipboard and xdotool on X11.
    public func paste(portal: PortalKeyboard? = nil) -> Result<any TextTarget, DeliveryError> {
        switch session.kind {
        case .wayland:
            if session.isDesktop("GNOME") {
                return .failure(DeliveryError("GNOME on Wayland lets no program set the clipboard without its portal."))
            }
            guard session.environment["WAYLAND_DISPLAY"] != nil else {
                return .failure(DeliveryError("Pasting on Wayland needs WAYLAND_DISPLAY, and it is not set."))
            }
            let onKDE = session.isDesktop("KDE")
            if onKDE, portal == nil {
                return .failure(
                    DeliveryError("KDE has no virtual keyboard for Notula to press Ctrl+V with, and its RemoteDesktop portal is missing."))
            }
            return waylandClipboard().flatMap { clipboard in
                if onKDE, let portal {
                    return .success(PasteTarget(clipboard: clipboard, keystroke: .portal(portal), session: session))
                }
                return program(wtype, "wtype", package: "wtype").map { wtype in
                    PasteTarget(clipboard: clipboard, keystroke: .wtype(wtype, swaymsg: swaymsg), session: session)
                }
            }
        case .x11:
            return x11Clipboard().flatMap { clipboard in
                program(xdotool, "xdotool", package: "xdotool").map { xdotool in
                    PasteTarget(clipboard: clipboard, keystroke: .xdotool(xdotool), session: session)
                }
            }
        case .unknown:
            return .failure(DeliveryError("No graphical session was found: neither WAYLAND_DISPLAY nor DISPLAY is set."))
        }
    }

    /// What tells the program with the focus: GNOME Shell through Notula's extension on `bus` (the session bus), KWin
    /// through `kwin`'s script, sway's tree on other Wayland compositors, the X server's focus on X11; nil where none
    /// can.
    public func focusFinder(bus: Bus? = nil, kwin: KWinFocus? = nil) -> FocusFinder? {
        switch session.kind {
        case .wayland:
            if session.isDesktop("GNOME") {
                return bus.map { FocusFinder(.gnomeShell($0), environment: session.environment, timeLimit: .seconds(2)) }
            }
            if session.isDesktop("KDE") { return kwin.map { FocusFinder(.kwin($0), environment: session.environment) } }
            guard let swaymsg else { return nil }
            return FocusFinder(.sway(swaymsg: swaymsg), environment: session.environment)
        case .x11: return xdotool.map { FocusFinder(.x11(xdotool: $0), environment: session.environment) }
        case .unknown: return nil
        }
    }

    /// What keeps the clipboard across a paste through data control (Wayland but GNOME's) or on X11: at start, what
    /// puts back the clipboard a notulad killed during a paste left. Nil where this session pastes through neither.
    public func clipboardKeeper() -> ClipboardKeeper? {
        let clipboard: Result<any ClipboardOwner, DeliveryError>
        switch session.kind {
        case .wayland:
            guard !session.isDesktop("GNOME"), session.environment["WAYLAND_DISPLAY"] != nil else { return nil }
            clipboard = waylandClipboard()
        case .x11: clipboard = x11Clipboard()
        case .unknown: return nil
        }
        return try? ClipboardKeeper(clipboard: clipboard.get(), environment: session.environment, timeLimit: .seconds(10))
    }

    /// The clipboard of a Wayland session through data control (not GNOME's: the caller tells).
    private func waylandClipboard() -> Result<any ClipboardOwner, DeliveryError> {
        guard let clipboard = DataControlClipboard(environment: session.environment) else {
            return .failure(DeliveryError("The Wayland clipboard needs WAYLAND_DISPLAY and XDG_RUNTIME_DIR, and they are not set."))
        }
        return .success(clipboard)
    }

    /// The clipboard of an X11 session, read and owned by notulad: every type put back, the paste offered as secret.
    private func x11Clipboard() -> Result<any ClipboardOwner, DeliveryError> {
        guard let clipboard = X11Clipboard(environment: session.environment) else {
            return .failure(DeliveryError("The X11 clipboard needs DISPLAY, and it is not set."))
        }
        return .success(clipboard)
    }

    private func program(_ found: HelperProgram?, _ name: String, package: String) -> Result<HelperProgram, DeliveryError> {
        guard let found else {
            return .failure(DeliveryError("\(name) is not installed: install the package \(package) (sudo apt install \(package))."))
        }
        return .success(found)
    }
}
