import Delivering
import Testing

/// The session read from an environment: what kind it is, which desktop, and only what a helper program needs.
@Suite struct DesktopSessionTests {
    @Test func aGNOMEWaylandSessionIsReadFromItsVariables() {
        let session = DesktopSession(environment: [
            "XDG_SESSION_TYPE": "wayland", "XDG_CURRENT_DESKTOP": "ubuntu:GNOME", "WAYLAND_DISPLAY": "wayland-0", "HOME": "/home/u",
            "DISPLAY": "",
        ])

        #expect(session.kind == .wayland)
        #expect(session.isDesktop("GNOME"))
        #expect(session.environment == ["XDG_SESSION_TYPE": "wayland", "XDG_CURRENT_DESKTOP": "ubuntu:GNOME", "WAYLAND_DISPLAY": "wayland-0"])
    }

    @Test func withoutASessionTypeTheDisplaysTell() {
        #expect(DesktopSession(environment: ["DISPLAY": ":5"]).kind == .x11)
        #expect(DesktopSession(environment: ["WAYLAND_DISPLAY": "wayland-1", "DISPLAY": ":0"]).kind == .wayland)
        #expect(DesktopSession(environment: [:]).kind == .unknown)
    }
}
