import Delivering
import Foundation
import NotulaTestSupport
import Testing

/// A text of `count` characters that starts with a dash and holds accents, Hangul, an emoji, newlines and shell
/// metacharacters that would touch `marker` if anything ran them.
private func hostileText(characters count: Int, marker: String) -> String {
    let pattern = "-n -- ; rm -rf ~ $(touch \(marker)) `touch \(marker)` && touch \(marker) | \"'\\ Grüße aus Köln, café — 한국어 😀\n"
    return String(String(repeating: pattern, count: count / pattern.count + 1).prefix(count))
}

struct ClipboardNotCleared: Error {}

/// Whether python3 can open a GTK4 window (the text entry of `TerminalsInSway.openTextEntry()`).
func hasGTK4ForPython() -> Bool {
    (try? run("/usr/bin/python3", ["-c", "import gi; gi.require_version('Gtk', '4.0')"]))?.status == 0
}

/// Pastes `text` with `target` and returns once `typed()` reads it, printing how long it took to arrive.
private func pasteAndTime(_ text: String, with target: any TextTarget, into window: String, typed: () -> String) async throws {
    let start = ContinuousClock.now
    do { try await target.deliver(text) } catch {
        print("Pasting \(text.count) characters into \(window) failed; the window holds \(typed().debugDescription)")
        throw error
    }
    let delivered = ContinuousClock.now - start
    try await waitUntilTyped(text, in: typed)
    print(
        "Pasted \(text.count) characters into \(window): delivered in \(delivered), seen in the window after \(ContinuousClock.now - start)"
    )
}

/// The clipboard `previous` set, then a hostile text of `characters` pasted into the terminal that `typed()` reads:
/// it arrives whole, runs nothing, and `clipboard()` reads `previous` again.
private func pasteHostileText(
    characters: Int, with targets: HelperTargets, into window: String, typed: () -> String, clipboard: () throws -> CommandResult
) async throws {
    let previous = "copied before: naïve 한 😀\nsecond line"
    try await targets.clipboard().get().deliver(previous)
    let marker = FileManager.default.temporaryDirectory.appendingPathComponent("notula-ran-\(UUID().uuidString)").path
    let text = hostileText(characters: characters, marker: marker)

    let target = try targets.paste().get()
    try await pasteAndTime(text, with: target, into: window, typed: typed)

    #expect(target.method == .paste)
    #expect(try clipboard().output == previous)
    #expect(!FileManager.default.fileExists(atPath: marker))
}

/// Text pasted with wl-copy and one wtype keystroke into a real foot terminal in a headless sway: the terminal's
/// file holds the text, and wl-paste what the clipboard held before.
@Suite(
    .serialized,
    .enabled(if: installed("sway", "swaymsg", "foot", "wtype", "wl-copy", "wl-paste"), "needs sway, foot, wtype and wl-clipboard"),
    .terminalsInSway)
struct WaylandPasteTests {
    let sway: TerminalsInSway
    let targets: HelperTargets

    init() throws {
        sway = try #require(TerminalsInSway.current)
        targets = sway.helperTargets
    }

    private func clipboard() throws -> CommandResult {
        try run("/usr/bin/wl-paste", ["--no-newline"], environment: sway.environment.merging(["LC_ALL": "C.UTF-8"]) { $1 })
    }

    @Test(arguments: [200, 2_000])
    func hostileTextArrivesWholeInATerminalAndThePreviousClipboardIsBack(characters: Int) async throws {
        let terminal = try await sway.openTerminal()
        defer { try? sway.close(terminal) }
        try await pasteHostileText(
            characters: characters, with: targets, into: "foot on sway", typed: terminal.typed, clipboard: clipboard)
    }

    @Test(.enabled(if: hasGTK4ForPython(), "needs python3-gi and gir1.2-gtk-4.0"))
    func aGTKEntryPastesOnCtrlV() async throws {
        let previous = "copied before"
        try await targets.clipboard().get().deliver(previous)
        let entry = try await sway.openTextEntry()
        defer { try? sway.close(entry) }
        let text = "-n Grüße aus Köln, café — 한국어 😀 $(touch x) `x` && | \"'\\"

        try await pasteAndTime(text, with: targets.paste().get(), into: "a GTK4 entry on sway", typed: entry.typed)

        #expect(try clipboard().output == previous)
    }

    @Test func anEmptyClipboardIsEmptyAgainAfterThePaste() async throws {
        try output(of: ["/usr/bin/wl-copy", "--clear"], environment: sway.environment)
        let terminal = try await sway.openTerminal()
        defer { try? sway.close(terminal) }
        let text = "Pasted into an empty clipboard: ß é 한 😀"

        try await targets.paste().get().deliver(text)

        try await waitUntilTyped(text) { terminal.typed() }
        #expect(try clipboard().status != 0)
    }
}

/// Text pasted with xclip and one xdotool keystroke into a real xterm on Xvfb, its resources set so that
/// Ctrl+Shift+V pastes the clipboard as in other terminals (xterm's own default pastes only the primary selection,
/// with Shift+Insert): the terminal's file holds the text, and `xclip -o` what the clipboard held before.
@Suite(
    .serialized,
    .enabled(if: installed("Xvfb", "xterm", "xdotool", "xclip"), "needs Xvfb, xterm, xdotool and xclip"),
    .terminalsUnderXvfb)
struct X11PasteTests {
    let xvfb: TerminalsUnderXvfb
    let targets: HelperTargets
    /// What an xterm user needs in `~/.Xresources` for Ctrl+Shift+V to paste the clipboard.
    private let pastingXTerm = ["XTerm*VT100.translations: #override Shift Ctrl <Key>V: insert-selection(CLIPBOARD)"]

    init() throws {
        xvfb = try #require(TerminalsUnderXvfb.current)
        targets = xvfb.helperTargets
    }

    private func clipboard() throws -> CommandResult {
        try run(
            "/usr/bin/xclip", ["-o", "-selection", "clipboard"], environment: xvfb.environment.merging(["LC_ALL": "C.UTF-8"]) { $1 })
    }

    @Test(arguments: [200, 2_000])
    func hostileTextArrivesWholeInATerminalAndThePreviousClipboardIsBack(characters: Int) async throws {
        let terminal = try await xvfb.openTerminal(resources: pastingXTerm)
        try await pasteHostileText(
            characters: characters, with: targets, into: "xterm on Xvfb", typed: terminal.typed, clipboard: clipboard)
    }

    @Test(.enabled(if: hasGTK4ForPython(), "needs python3-gi and gir1.2-gtk-4.0"))
    func aGTKEntryPastesOnCtrlV() async throws {
        let previous = "copied before"
        try await targets.clipboard().get().deliver(previous)
        let entry = try await xvfb.openTextEntry()
        let text = "-n Grüße aus Köln, café — 한국어 😀 $(touch x) `x` && | \"'\\"

        try await pasteAndTime(text, with: targets.paste().get(), into: "a GTK4 entry on Xvfb", typed: entry.typed)

        #expect(try clipboard().output == previous)
    }

    /// Leaves the clipboard with no owner, as xclip has no `--clear`: an empty text copied for one paste, and
    /// pasted by the test until the copier is gone.
    private func clearClipboard() async throws {
        let copier = Process()
        copier.executableURL = URL(fileURLWithPath: "/usr/bin/xclip")
        copier.arguments = ["-selection", "clipboard", "-loops", "1", "-in", "/dev/null"]
        copier.environment = xvfb.environment
        copier.standardOutput = FileHandle.nullDevice
        copier.standardError = FileHandle.nullDevice
        // Not awaited: Process reaps it only once the child it forks to serve the paste is gone.
        try copier.run()
        try await poll(within: .seconds(10)) {
            try clipboard().status != 0
        } otherwise: {
            ClipboardNotCleared()
        }
    }

    @Test func anEmptyClipboardIsEmptyAgainAfterThePaste() async throws {
        try await clearClipboard()
        let terminal = try await xvfb.openTerminal(resources: pastingXTerm)
        let text = "Pasted into an empty clipboard: ß é 한 😀"

        try await targets.paste().get().deliver(text)

        try await waitUntilTyped(text) { terminal.typed() }
        #expect(try clipboard().status != 0)
    }

    @Test func anXTermThatDoesNotPasteOnCtrlShiftVFailsTheDeliveryAndSaysSo() async throws {
        // xterm's defaults: Ctrl+Shift+V is a control character, not a paste.
        let terminal = try await xvfb.openTerminal()
        let target = PasteTarget(
            tools: .x11(xclip: HelperProgram(path: "/usr/bin/xclip"), xdotool: HelperProgram(path: "/usr/bin/xdotool")),
            session: DesktopSession(environment: xvfb.environment), pasteTime: .seconds(1))

        let error = await #expect(throws: DeliveryError.self) { try await target.deliver("never pasted") }

        #expect(error?.message.hasPrefix("The focused window did not paste on Ctrl+Shift+V") == true)
        #expect(!terminal.typed().contains("never pasted"))
    }
}

/// Where paste is offered, and what it says where it is not.
@Suite struct PasteOfferTests {
    /// A folder holding every helper program (empty scripts: only their presence counts here).
    private let allPrograms = TemporaryFolder()

    init() {
        for name in ["wtype", "xdotool", "wl-copy", "wl-paste", "xclip"] {
            _ = FileManager.default.createFile(
                atPath: allPrograms.file(name), contents: Data("#!/bin/sh\n".utf8), attributes: [.posixPermissions: 0o755])
        }
    }

    private func targets(_ environment: [String: String], searchPath: String? = nil) -> HelperTargets {
        HelperTargets(session: DesktopSession(environment: environment), searchPath: searchPath ?? allPrograms.path)
    }

    @Test func swayAndX11ArePastedInto() throws {
        let sway = targets(["XDG_SESSION_TYPE": "wayland", "XDG_CURRENT_DESKTOP": "sway", "WAYLAND_DISPLAY": "wayland-1"])
        let x11 = targets(["XDG_SESSION_TYPE": "x11", "DISPLAY": ":0"])

        #expect(try sway.paste().get().method == .paste)
        #expect(try x11.paste().get().method == .paste)
    }

    @Test func gnomeOnWaylandIsNotAndKDEOnlyThroughItsPortal() throws {
        let gnome = targets(["XDG_SESSION_TYPE": "wayland", "XDG_CURRENT_DESKTOP": "GNOME", "WAYLAND_DISPLAY": "wayland-0"])
        let kde = targets(["XDG_SESSION_TYPE": "wayland", "XDG_CURRENT_DESKTOP": "KDE", "WAYLAND_DISPLAY": "wayland-0"])

        #expect(throws: DeliveryError("GNOME on Wayland lets no program set the clipboard without its portal.")) {
            try gnome.paste().get()
        }
        #expect(
            throws: DeliveryError("KDE has no virtual keyboard for Notula to press Ctrl+V with, and its RemoteDesktop portal is missing.")
        ) { try kde.paste().get() }
    }

    @Test func aMissingProgramNamesTheDebianPackageToInstall() throws {
        let onlyCopy = TemporaryFolder()
        for name in ["wtype", "wl-copy", "xclip"] {
            try FileManager.default.createSymbolicLink(atPath: onlyCopy.file(name), withDestinationPath: allPrograms.file(name))
        }
        let sway = targets(
            ["XDG_SESSION_TYPE": "wayland", "XDG_CURRENT_DESKTOP": "sway", "WAYLAND_DISPLAY": "wayland-1"], searchPath: onlyCopy.path)
        let x11 = targets(["DISPLAY": ":0"], searchPath: onlyCopy.path)

        #expect(throws: DeliveryError("wl-paste is not installed: install the package wl-clipboard (sudo apt install wl-clipboard).")) {
            try sway.paste().get()
        }
        #expect(throws: DeliveryError("xdotool is not installed: install the package xdotool (sudo apt install xdotool).")) {
            try x11.paste().get()
        }
    }
}
