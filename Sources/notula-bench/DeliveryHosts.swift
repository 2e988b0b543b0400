import Delivering
import Foundation
import NotulaTestSupport
import Synchronization

/// The hosts the delivery bench types into, each started once, and the methods measured on each.
extension Delivery {
    // MARK: The hosts

    static func measureSway(sizes: [Int], into rows: inout [Row], missing: inout [String]) async {
        guard installed("sway", "foot", "wtype", "wl-copy", "wl-paste") else {
            missing.append("virtual-keyboard and wl-copy: needs sway, foot, wtype and wl-clipboard")
            return
        }
        do {
            progress("delivery: wtype and wl-copy into foot on a headless sway")
            let sway = try await TerminalsInSway()
            let session = DesktopSession(
                environment: sway.environment.merging(["XDG_SESSION_TYPE": "wayland", "XDG_CURRENT_DESKTOP": "sway"]) { $1 })
            let targets = HelperTargets(session: session, searchPath: "/usr/bin:/bin")
            let terminal = try await sway.openTerminal()
            let environment = session.environment.merging(["LC_ALL": "C.UTF-8"]) { $1 }
            rows += try await measure(
                Method(
                    name: "virtual-keyboard: wtype → foot (sway)", target: try targets.virtualKeyboard().get(),
                    client: Client(read: terminal.typed, accumulates: true),
                    peer: .direct(label: "`wtype TEXT`", start: { try start("/usr/bin/wtype", [$0], environment) }),
                    sizes: sizes))
            rows += try await measure(
                Method(
                    name: "clipboard: wl-copy → wl-paste (sway)", target: try targets.clipboard().get(),
                    client: Client(read: { pasted(["/usr/bin/wl-paste", "--no-newline"], environment) }, accumulates: false),
                    peer: .direct(label: "`wl-copy TEXT`", start: { try start("/usr/bin/wl-copy", [$0], environment) }),
                    sizes: sizes, isCheap: true))
            // Against typing the same text, which pasting replaces for long texts.
            rows += try await measure(
                Method(
                    name: "paste: wl-copy once, Ctrl+Shift+V → foot (sway)", target: try targets.paste().get(),
                    client: Client(read: terminal.typed, accumulates: true),
                    peer: .direct(label: "`wtype TEXT`", start: { try start("/usr/bin/wtype", [$0], environment) }),
                    sizes: sizes))
            try? sway.close(terminal)
        } catch {
            missing.append("virtual-keyboard and wl-copy: \(error)")
        }
    }

    static func measureXvfb(sizes: [Int], into rows: inout [Row], missing: inout [String]) async {
        guard installed("Xvfb", "xterm", "xdotool", "xclip") else {
            missing.append("xtest and xclip: needs Xvfb, xterm, xdotool and xclip")
            return
        }
        do {
            progress("delivery: xdotool and xclip into xterm on Xvfb")
            let xvfb = try TerminalsUnderXvfb()
            let session = DesktopSession(environment: xvfb.environment.merging(["XDG_SESSION_TYPE": "x11"]) { $1 })
            let targets = HelperTargets(session: session, searchPath: "/usr/bin:/bin")
            // As a user's ~/.Xresources must set it for xterm to paste the clipboard on a key.
            let terminal = try await xvfb.openTerminal(resources: [
                "XTerm*VT100.translations: #override Shift Ctrl <Key>V: insert-selection(CLIPBOARD)"
            ])
            let environment = session.environment.merging(["LC_ALL": "C.UTF-8"]) { $1 }
            rows += try await measure(
                Method(
                    name: "xtest: xdotool → xterm (Xvfb)", target: try targets.xtest().get(),
                    client: Client(read: terminal.typed, accumulates: true),
                    peer: .direct(
                        label: "`xdotool type TEXT`", start: { try start("/usr/bin/xdotool", ["type", $0], environment) }),
                    sizes: sizes))
            rows += try await measure(
                Method(
                    name: "paste: own X11 clipboard once, Ctrl+Shift+V → xterm (Xvfb)", target: try targets.paste().get(),
                    client: Client(read: terminal.typed, accumulates: true),
                    peer: .direct(
                        label: "`xdotool type TEXT`", start: { try start("/usr/bin/xdotool", ["type", $0], environment) }),
                    sizes: sizes))
            let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("notula-bench-xclip-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: scratch) }
            rows += try await measure(
                Method(
                    name: "clipboard: xclip → xclip -o (Xvfb)", target: try targets.clipboard().get(),
                    client: Client(
                        read: { pasted(["/usr/bin/xclip", "-selection", "clipboard", "-o"], environment) }, accumulates: false),
                    peer: .direct(
                        label: "`xclip -selection clipboard FILE`",
                        start: {
                            try Data($0.utf8).write(to: scratch)
                            return try start("/usr/bin/xclip", ["-selection", "clipboard", scratch.path], environment)
                        }),
                    sizes: sizes, isCheap: true))
        } catch {
            missing.append("xtest and xclip: \(error)")
        }
    }

    /// GNOME 43's portal types; GNOME 48's pastes a text off the layout through the session's clipboard, one Ctrl+V at
    /// any length, against typing the same text there (its pauses alone, the Unicode entry of the É left out).
    static func measureGNOME(sizes: [Int], into rows: inout [Row], missing: inout [String]) async {
        progress("delivery: the RemoteDesktop portal into a GTK4 entry on GNOME Shell 43")
        await measure(
            GnomeShellHost.shared(), named: "portal: RemoteDesktop → GTK4 entry (GNOME Shell 43)", sizes: sizes,
            into: &rows, missing: &missing)
        progress("delivery: the RemoteDesktop portal's clipboard into a GTK4 entry on GNOME Shell 48")
        await measure(
            Gnome48Host.shared(), named: "portal paste: Clipboard portal + Ctrl+V → GTK4 entry (GNOME Shell 48)",
            sizes: sizes, spelling: { "É" + $0.dropFirst() }, into: &rows, missing: &missing)
    }

    private static func measure(
        _ started: Result<some GnomeDesktop, HeadlessSession.Unavailable>, named name: String, sizes: [Int],
        spelling: @escaping @Sendable (String) -> String = { $0 }, into rows: inout [Row], missing: inout [String]
    ) async {
        do {
            let host = try started.get()
            let entry = try await host.openTypingTarget()
            let bus = try await host.connect()
            defer { Task { await bus.close() } }
            let keyboard = PortalKeyboard(
                bus: bus, restoreTokenFile: "/nonexistent/notula-bench/restore-token", consentTimeout: .seconds(60))
            // The first delivery opens the session: the dialog, answered once, is not part of the figures.
            let answer = try host.answerRemoteDesktopDialog(.allow)
            try await keyboard.deliver(spelling("Hello. "))
            try await answer.answered()
            rows += try await measure(
                Method(
                    name: name, target: keyboard, client: Client(read: { entry.text }, accumulates: true),
                    peer: .floor(label: "typing it, its pauses alone", of: portalPauses), sizes: sizes, spelling: spelling),
                warmUp: false)
        } catch {
            missing.append("\(name): \(error)")
        }
    }

    static func measurePlasma(sizes: [Int], into rows: inout [Row], missing: inout [String]) async {
        progress("delivery: the KDE portal and KWin's clipboard into a Qt entry on KWin 5.27")
        switch await PlasmaHost.shared() {
        case .failure(let unavailable):
            missing.append("portal and paste on KDE: \(unavailable.reason)")
        case .success(let host):
            do {
                let entry = try await host.openTypingTarget(.qt5)
                let bus = try await host.connect()
                defer { Task { await bus.close() } }
                let session = DesktopSession(environment: host.environment)
                let pauses = PortalKeyboard.keyPauses(for: session)
                let keyboard = PortalKeyboard(
                    bus: bus, restoreTokenFile: "/nonexistent/notula-bench/restore-token", keyInterval: pauses.keyInterval,
                    modifierPause: pauses.modifierPause)
                let helpers = HelperTargets(session: session, searchPath: "/usr/bin:/bin")
                let paste = try helpers.paste(portal: keyboard).get()
                // Something on the clipboard, as a session with a clipboard history keeps it: KWin leaves a reader of an
                // empty one unanswered, which costs a paste the second it waits for the clipboard it would put back.
                try await helpers.clipboard().get().deliver("copied before")
                rows += try await measure(
                    Method(
                        name: "portal: RemoteDesktop, unpaced → Qt entry (KWin 5.27)", target: keyboard,
                        client: Client(read: { entry.text }, accumulates: true),
                        peer: .floor(label: "GNOME's pauses for its keys", of: portalPauses), sizes: sizes))
                // Against the pauses of typing the same text as on GNOME: what leaving them out and pasting save.
                rows += try await measure(
                    Method(
                        name: "paste: wl-copy once, portal Ctrl+V → Qt entry (KWin 5.27)", target: paste,
                        client: Client(read: { entry.text }, accumulates: true),
                        peer: .floor(label: "GNOME's pauses for its keys", of: portalPauses), sizes: sizes))
            } catch {
                missing.append("portal and paste on KDE: \(error)")
            }
        }
    }
}
