import Delivering
import Foundation
import NotulaTestSupport
import TestPasses
import Testing

/// notulad's own X11 clipboard, as programs on the display see it: a previous clipboard of several types comes back
/// whole, and the one-time paste is offered as a secret, which Klipper leaves out of its history.
@Suite(
    .serialized,
    .enabled(if: installed("Xvfb", "xterm", "xdotool", "xclip"), "needs Xvfb, xterm, xdotool and xclip"),
    .terminalsUnderXvfb, .tags(.lightDesktop))
struct X11ClipboardTests {
    let xvfb: TerminalsUnderXvfb
    let runtime = TemporaryFolder()
    /// What an xterm user needs in `~/.Xresources` for Ctrl+Shift+V to paste the clipboard.
    private let pastingXTerm = ["XTerm*VT100.translations: #override Shift Ctrl <Key>V: insert-selection(CLIPBOARD)"]

    init() throws {
        xvfb = try #require(TerminalsUnderXvfb.current)
    }

    private func pasteTarget(xdotool: String = "/usr/bin/xdotool") throws -> PasteTarget {
        PasteTarget(
            clipboard: try #require(X11Clipboard(environment: xvfb.environment)), keystroke: .xdotool(HelperProgram(path: xdotool)),
            session: DesktopSession(environment: xvfb.environment.merging(["XDG_SESSION_TYPE": "x11", "XDG_RUNTIME_DIR": runtime.path]) { $1 }))
    }

    @Test func everyTypeCopiedTogetherIsBackByteForByteAfterThePaste() async throws {
        // 3 MB: more than one property change carries, so it crosses both ways in parts (INCR).
        let image = Data([0x89, 0x50, 0x4e, 0x47, 0x00, 0xff]) + Data((0..<3_000_000).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ $0 >> 9) })
        let copied: [(type: String, bytes: Data)] = [
            ("text/plain;charset=utf-8", Data("copied before: naïve 한 😀".utf8)),
            ("text/html", Data("<b>copied</b> before".utf8)),
            ("image/png", image),
        ]
        try await xvfb.copyTogether(copied)
        let terminal = try await xvfb.openTerminal(resources: pastingXTerm)
        let text = "Pasted over three types: ß é 한 😀"

        try await pasteTarget().deliver(text)

        try await waitUntilTyped(text) { terminal.typed() }
        for (type, bytes) in copied { #expect(try xvfb.clipboardBytes(type) == bytes, "\(type)") }
        #expect(try xvfb.clipboardBytes("UTF8_STRING") == copied[0].bytes)
        #expect(!FileManager.default.fileExists(atPath: runtime.file("notula/clipboard")))
    }

    @Test func theOneTimePasteIsOfferedAsASecretAndTheClipboardBackIsNot() async throws {
        try await xvfb.copyTogether([("text/plain;charset=utf-8", Data("copied before".utf8))])
        let terminal = try await xvfb.openTerminal(resources: pastingXTerm)
        // The keystroke tool reads the clipboard as a clipboard manager would, just before it presses the key.
        let seen = runtime.file("seen")
        let pressing = runtime.file("read-then-press")
        let script = """
            #!/bin/sh
            /usr/bin/xclip -selection clipboard -out -target TARGETS > '\(seen).types'
            /usr/bin/xclip -selection clipboard -out -target x-kde-passwordManagerHint > '\(seen).hint'
            exec /usr/bin/xdotool "$@"

            """
        _ = FileManager.default.createFile(atPath: pressing, contents: Data(script.utf8), attributes: [.posixPermissions: 0o755])
        let text = "a dictation no clipboard manager keeps"

        try await pasteTarget(xdotool: pressing).deliver(text)

        try await waitUntilTyped(text) { terminal.typed() }
        let offered = try String(contentsOfFile: seen + ".types", encoding: .utf8).split(separator: "\n")
        #expect(offered.contains("x-kde-passwordManagerHint") && offered.contains("UTF8_STRING"))
        #expect(try String(contentsOfFile: seen + ".hint", encoding: .utf8) == "secret")
        #expect(!(try xvfb.clipboardTypes()).contains("x-kde-passwordManagerHint"))
        #expect(try xvfb.clipboardBytes("UTF8_STRING") == Data("copied before".utf8))
    }

    @Test(.enabled(if: installed("klipper", "busctl"), "needs Klipper (plasma-workspace) and busctl"))
    func klipperKeepsWhatTheUserCopiedButNotTheDictation() async throws {
        let klipper = try await xvfb.startKlipper()
        try await xvfb.copyTogether([("text/plain;charset=utf-8", Data("copied before the dictation".utf8))])
        try await poll(within: .seconds(10)) { try klipper.history().first == "copied before the dictation" } otherwise: {
            KlipperMissed(copy: "copied before the dictation")
        }
        let terminal = try await xvfb.openTerminal(resources: pastingXTerm)
        let text = "a dictation Klipper must not keep"

        try await pasteTarget().deliver(text)

        try await waitUntilTyped(text) { terminal.typed() }
        // Klipper takes copies in order: once it holds a later one, it has seen the paste's offer.
        try await xvfb.copyTogether([("text/plain;charset=utf-8", Data("copied after the dictation".utf8))])
        try await poll(within: .seconds(10)) { try klipper.history().first == "copied after the dictation" } otherwise: {
            KlipperMissed(copy: "copied after the dictation")
        }
        let history = try klipper.history()
        #expect(!history.contains { $0.contains("dictation Klipper") }, "Klipper kept \(history)")
        #expect(history.contains("copied before the dictation"))
    }
}

private struct KlipperMissed: Error, CustomStringConvertible {
    let copy: String
    var description: String { "Klipper's history never showed \(copy.debugDescription)" }
}
