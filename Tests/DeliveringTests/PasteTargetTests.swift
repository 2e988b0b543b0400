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
        let session = DesktopSession(
            environment: sway.environment.merging(["XDG_SESSION_TYPE": "wayland", "XDG_CURRENT_DESKTOP": "sway"]) { $1 })
        targets = HelperTargets(session: session, searchPath: "/usr/local/bin:/usr/bin:/bin")
    }

    private func clipboard() throws -> CommandResult {
        try run("/usr/bin/wl-paste", ["--no-newline"], environment: sway.environment.merging(["LC_ALL": "C.UTF-8"]) { $1 })
    }

    @Test(arguments: [200, 2_000])
    func hostileTextArrivesWholeInATerminalAndThePreviousClipboardIsBack(characters: Int) async throws {
        let previous = "copied before: naïve 한 😀\nsecond line"
        try await targets.clipboard().get().deliver(previous)
        let terminal = try await sway.openTerminal()
        defer { try? sway.close(terminal) }
        let marker = FileManager.default.temporaryDirectory.appendingPathComponent("notula-ran-\(UUID().uuidString)").path
        let text = hostileText(characters: characters, marker: marker)

        let target = try targets.paste().get()
        try await pasteAndTime(text, with: target, into: "foot on sway", typed: terminal.typed)

        #expect(target.method == .paste)
        #expect(try clipboard().output == previous)
        #expect(!FileManager.default.fileExists(atPath: marker))
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
        targets = HelperTargets(
            session: DesktopSession(environment: xvfb.environment.merging(["XDG_SESSION_TYPE": "x11"]) { $1 }), searchPath: "/usr/bin:/bin")
    }

    private func clipboard() throws -> CommandResult {
        try run(
            "/usr/bin/xclip", ["-o", "-selection", "clipboard"], environment: xvfb.environment.merging(["LC_ALL": "C.UTF-8"]) { $1 })
    }

    @Test(arguments: [200, 2_000])
    func hostileTextArrivesWholeInATerminalAndThePreviousClipboardIsBack(characters: Int) async throws {
        let previous = "copied before: naïve 한 😀\nsecond line"
        try await targets.clipboard().get().deliver(previous)
        let terminal = try await xvfb.openTerminal(resources: pastingXTerm)
        let marker = FileManager.default.temporaryDirectory.appendingPathComponent("notula-ran-\(UUID().uuidString)").path
        let text = hostileText(characters: characters, marker: marker)

        let target = try targets.paste().get()
        try await pasteAndTime(text, with: target, into: "xterm on Xvfb", typed: terminal.typed)

        #expect(target.method == .paste)
        #expect(try clipboard().output == previous)
        #expect(!FileManager.default.fileExists(atPath: marker))
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
}
