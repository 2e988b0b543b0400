/// What the graphical session is, read from an environment: notulad's own, or the user manager's, which
/// `dbus-update-activation-environment --systemd` fills after notulad may have started.
public struct DesktopSession: Sendable, Equatable {
    public enum Kind: Sendable, Equatable { case wayland, x11, unknown }

    public let kind: Kind
    /// `XDG_CURRENT_DESKTOP`, split at `:`, upper-cased: `["GNOME"]`, `["KDE"]`, `["SWAY"]`.
    public let desktops: [String]
    /// The variables a program that types or copies needs to reach the session: the displays, the X
    /// authority, the runtime folder (where a Wayland socket named by a relative name lives).
    public let environment: [String: String]

    static let passedOn = ["WAYLAND_DISPLAY", "DISPLAY", "XAUTHORITY", "XDG_RUNTIME_DIR", "XDG_SESSION_TYPE", "XDG_CURRENT_DESKTOP"]

    public init(environment: [String: String]) {
        self.environment = environment.filter { Self.passedOn.contains($0.key) && !$0.value.isEmpty }
        desktops = (environment["XDG_CURRENT_DESKTOP"] ?? "").split(separator: ":").map { $0.uppercased() }
        switch environment["XDG_SESSION_TYPE"] {
        case "wayland": kind = .wayland
        case "x11": kind = .x11
        default: kind = self.environment["WAYLAND_DISPLAY"] != nil ? .wayland : self.environment["DISPLAY"] != nil ? .x11 : .unknown
        }
    }

    /// Whether `XDG_CURRENT_DESKTOP` names `desktop` (upper case: `GNOME`, `KDE`).
    public func isDesktop(_ desktop: String) -> Bool { desktops.contains(desktop) }
}
