import Testing

@testable import Delivering

/// A window is a terminal's by any of its app ids, however the compositor spells it.
struct FocusedWindowTests {
    @Test(arguments: [
        "org.gnome.Terminal", "org.gnome.Terminal.desktop", "Gnome-terminal", "org.gnome.Console", "org.kde.konsole", "konsole",
    ])
    func aTerminalsAppIDNamesATerminal(appID: String) {
        #expect(FocusedWindow(processID: nil, appIDs: ["", appID]).hasTerminalAppID)
    }

    @Test(arguments: ["org.gnome.gedit", "org.kde.kate", "firefox", "org.gnome.Terminal.Preferences", ""])
    func anotherAppIDNamesNoTerminal(appID: String) {
        #expect(!FocusedWindow(processID: nil, appIDs: [appID]).hasTerminalAppID)
    }
}
