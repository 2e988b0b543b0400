import Delivering
import Foundation
import NotulaTestSupport
import Testing

/// Which helper-program targets a session offers, and what it says about the others.
@Suite struct HelperTargetsTests {
    /// A folder holding every helper program (empty scripts: only their presence counts here).
    private let allPrograms = TemporaryFolder()

    init() {
        for name in ["wtype", "xdotool"] {
            _ = FileManager.default.createFile(
                atPath: allPrograms.file(name), contents: Data("#!/bin/sh\n".utf8), attributes: [.posixPermissions: 0o755])
        }
    }

    private func targets(_ environment: [String: String], searchPath: String? = nil) -> HelperTargets {
        HelperTargets(session: DesktopSession(environment: environment), searchPath: searchPath ?? allPrograms.path)
    }

    @Test func swayIsTypedIntoThroughTheVirtualKeyboardAndCopiedToThroughDataControl() throws {
        let sway = targets([
            "XDG_SESSION_TYPE": "wayland", "XDG_CURRENT_DESKTOP": "sway", "WAYLAND_DISPLAY": "wayland-1", "DISPLAY": ":0",
            "XDG_RUNTIME_DIR": "/run/user/1000",
        ])

        #expect(try sway.virtualKeyboard().get().method == .virtualKeyboard)
        #expect(try sway.clipboard().get().method == .clipboard)
        #expect(throws: DeliveryError.self) { try sway.xtest().get() }
        #expect(try sway.xtest(forced: true).get().method == .xtest)
    }

    @Test func gnomeAndKDEOfferNoVirtualKeyboardUnlessForced() throws {
        for desktop in ["GNOME", "KDE"] {
            let session = targets(["XDG_SESSION_TYPE": "wayland", "XDG_CURRENT_DESKTOP": desktop, "WAYLAND_DISPLAY": "wayland-0"])

            #expect(throws: DeliveryError("\(desktop) does not offer the virtual-keyboard protocol: type through the portal.")) {
                try session.virtualKeyboard().get()
            }
            #expect(try session.virtualKeyboard(forced: true).get().method == .virtualKeyboard)
        }
    }

    @Test func gnomeOnWaylandHasNoClipboardForWlCopy() {
        let gnome = targets(["XDG_SESSION_TYPE": "wayland", "XDG_CURRENT_DESKTOP": "ubuntu:GNOME", "WAYLAND_DISPLAY": "wayland-0"])

        #expect(throws: DeliveryError.self) { try gnome.clipboard().get() }
    }

    @Test func x11IsTypedIntoThroughXTESTAndCopiedToByNotulad() throws {
        let x11 = targets(["XDG_SESSION_TYPE": "x11", "DISPLAY": ":0"])

        #expect(try x11.xtest().get().method == .xtest)
        #expect(try x11.clipboard().get().method == .clipboard)
        #expect(throws: DeliveryError.self) { try x11.virtualKeyboard(forced: true).get() }
    }

    @Test func aMissingProgramNamesTheDebianPackageToInstall() throws {
        let sway = targets(["XDG_SESSION_TYPE": "wayland", "XDG_CURRENT_DESKTOP": "sway", "WAYLAND_DISPLAY": "wayland-1"], searchPath: "")
        let x11 = targets(["DISPLAY": ":0"], searchPath: "/nonexistent")

        #expect(throws: DeliveryError("wtype is not installed: install the package wtype (sudo apt install wtype).")) {
            try sway.virtualKeyboard().get()
        }
        // The clipboard needs no program: Notula speaks data control and X11's selections itself.
        #expect(throws: DeliveryError("The Wayland clipboard needs WAYLAND_DISPLAY and XDG_RUNTIME_DIR, and they are not set.")) {
            try sway.clipboard().get()
        }
        #expect(throws: DeliveryError("xdotool is not installed: install the package xdotool (sudo apt install xdotool).")) {
            try x11.xtest().get()
        }
        #expect(try x11.clipboard().get().method == .clipboard)
    }

    @Test func withoutADisplayNothingIsOffered() {
        let none = targets([:])

        #expect(throws: DeliveryError.self) { try none.virtualKeyboard(forced: true).get() }
        #expect(throws: DeliveryError.self) { try none.xtest(forced: true).get() }
        #expect(throws: DeliveryError.self) { try none.clipboard().get() }
    }
}
