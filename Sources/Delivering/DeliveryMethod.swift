/// How a memo's text reached the user: the `method` of the recorder's `Delivered` signal, and the values of its
/// `Typing` property besides `auto`.
public enum DeliveryMethod: String, Sendable, CaseIterable {
    /// The XDG RemoteDesktop portal's keyboard (GNOME, KDE on Wayland).
    case portal
    /// The wlroots virtual-keyboard protocol (sway, Hyprland, river, labwc), through `wtype`.
    case virtualKeyboard = "virtual-keyboard"
    /// X11's XTEST extension, through `xdotool`.
    case xtest
    /// The text on the clipboard, then one paste keystroke, the previous clipboard put back.
    case paste
    /// The text left on the clipboard for the user to paste.
    case clipboard
}
