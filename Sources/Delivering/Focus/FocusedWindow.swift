/// The window with the keyboard focus, as the compositor describes it: its client's process and the app id it
/// gives (the Wayland app id, the desktop file's name, the X window's class), each as far as it is known.
struct FocusedWindow: Sendable, Equatable {
    var processID: Int32?
    var appIDs: [String] = []

    /// Terminals, by the app ids of their windows (lower case, without `.desktop`): the name a program that forks a
    /// server or a shell under another process name (gnome-terminal-server, kgx) still gives its windows.
    static let terminalAppIDs: Set<String> = [
        "alacritty", "blackbox", "com.mitchellh.ghostty", "com.raggesilver.blackbox", "contour", "cool-retro-term", "foot",
        "footclient", "gnome-terminal", "gnome-terminal-server", "guake", "kitty", "konsole", "lxterminal", "mate-terminal",
        "org.codeberg.dnkl.foot", "org.gnome.console", "org.gnome.ptyxis", "org.gnome.terminal", "org.kde.konsole",
        "org.kde.yakuake", "org.wezfurlong.wezterm", "qterminal", "rio", "roxterm", "terminator", "terminology", "tilix",
        "com.gexperts.tilix", "urxvt", "wezterm", "xfce4-terminal", "xterm", "yakuake",
    ]

    /// Whether one of the window's app ids names a terminal.
    var hasTerminalAppID: Bool {
        appIDs.contains { Self.terminalAppIDs.contains(Self.normalised($0)) }
    }

    private static func normalised(_ appID: String) -> String {
        let lower = appID.lowercased()
        return lower.hasSuffix(".desktop") ? String(lower.dropLast(".desktop".count)) : lower
    }
}
