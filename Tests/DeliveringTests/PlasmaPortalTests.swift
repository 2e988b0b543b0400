import DBus
import Delivering
import Foundation
import NotulaTestSupport
import TestPasses
import Testing

/// KDE Plasma's RemoteDesktop portal typing into real Qt 5 and GTK4 windows on a real, headless KWin, and the text
/// a Qt window cannot take typed (outside the layout) pasted through KWin's clipboard and the portal's Ctrl+V. The
/// KDE portal asks nobody. One KWin for the suite; one window at a time has the focus.
@Suite(.serialized, .tags(.desktop)) struct PlasmaPortalTests {
    @Test func typesLayoutTextIntoAQtWindowAndTextOutsideItIntoAGTKOne() async throws {
        let host = try desktop(await PlasmaHost.shared())
        let bus = try await host.connect()
        defer { Task { await bus.close() } }
        // As notulad makes it for KDE: no pauses between keys.
        let pauses = PortalKeyboard.keyPauses(for: DesktopSession(environment: host.environment))
        let keyboard = PortalKeyboard(
            bus: bus, restoreTokenFile: "/nonexistent/restore-token", keyInterval: pauses.keyInterval, modifierPause: pauses.modifierPause)
        #expect(await PortalKeyboard.isAvailable(on: bus))

        let qt = try await host.openTypingTarget(.qt5)
        var typed = ""
        for round in 1...3 {
            let hostile = "\(round): -- ; rm -rf ~ \"Quoted\" $HOME & 100% done, Qt 5.27! A-Z a-z ~@#^*()_+{}|:<>? "
            try await keyboard.deliver(hostile)
            typed += hostile
            try await qt.waitForText(typed)
        }

        let gtk = try await host.openTypingTarget(.gtk4)
        try await keyboard.deliver("Hello, wörld 한")
        try await gtk.waitForText("Hello, wörld 한")
    }

    @Test func pastesTextOutsideTheLayoutIntoAQtWindowAndPutsTheClipboardBack() async throws {
        let host = try desktop(await PlasmaHost.shared())
        let bus = try await host.connect()
        defer { Task { await bus.close() } }
        let keyboard = PortalKeyboard(bus: bus, restoreTokenFile: "/nonexistent/restore-token", keyInterval: .zero, modifierPause: .zero)
        let helpers = HelperTargets(session: DesktopSession(environment: host.environment), searchPath: "/usr/bin")
        let paste = try helpers.paste(portal: keyboard).get()
        let qt = try await host.openTypingTarget(.qt5)
        try await helpers.clipboard().get().deliver("earlier copy")

        let text = "Grüße, ça va? 안녕하세요 😀"
        try await paste.deliver(text)

        try await qt.waitForText(text)
        #expect(try output(of: ["wl-paste", "--no-newline"], environment: host.environment) == "earlier copy")
    }

    /// Klipper keeps every copy but the dictation, which is offered with the password manager's hint; a copy
    /// without it is the control that shows Klipper watching.
    @Test func klipperKeepsNoDictationAndTheClipboardIsPutBack() async throws {
        let host = try desktop(await PlasmaHost.shared())
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/klipper"), FileManager.default.isExecutableFile(atPath: "/usr/bin/gdbus")
        else {
            print("Skipped: needs klipper (plasma-workspace) and gdbus (libglib2.0-bin)")
            return
        }
        try await host.startKlipper()
        let bus = try await host.connect()
        defer { Task { await bus.close() } }
        let keyboard = PortalKeyboard(bus: bus, restoreTokenFile: "/nonexistent/restore-token", keyInterval: .zero, modifierPause: .zero)
        let helpers = HelperTargets(session: DesktopSession(environment: host.environment), searchPath: "/usr/bin")
        let paste = try helpers.paste(portal: keyboard).get()
        let clipboard = try helpers.clipboard().get()
        let qt = try await host.openTypingTarget(.qt5)
        try await clipboard.deliver("copied before the dictation")
        try await poll(within: .seconds(10)) { try host.klipperHistory().first == "copied before the dictation" } otherwise: {
            KlipperDidNotSee(history: (try? host.klipperHistory()) ?? [])
        }

        let text = "Dictated for Klipper to forget, ça va"
        try await paste.deliver(text)

        try await qt.waitForText(text)
        #expect(try output(of: ["wl-paste", "--no-newline"], environment: host.environment) == "copied before the dictation")
        // Klipper handles the clipboard's changes in order: once it has this copy, it has seen the dictation.
        try await clipboard.deliver("copied after the dictation")
        try await poll(within: .seconds(10)) { try host.klipperHistory().first == "copied after the dictation" } otherwise: {
            KlipperDidNotSee(history: (try? host.klipperHistory()) ?? [])
        }
        #expect(try !host.klipperHistory().contains { $0.contains("Dictated") })
    }
}

struct KlipperDidNotSee: Error, CustomStringConvertible {
    let history: [String]
    var description: String { "Klipper's history is \(history)" }
}
