import Delivering
import Foundation
import NotulaTestSupport
import Testing

/// Text typed through xdotool (XTEST) into a real xterm on Xvfb, and put on its clipboard with xclip: what the
/// terminal's file and `xclip -o` hold is what a user would see.
@Suite(
    .serialized,
    .enabled(if: installed("Xvfb", "xterm", "xdotool", "xclip", "setxkbmap"), "needs Xvfb, xterm, xdotool, xclip and setxkbmap"),
    .terminalsUnderXvfb)
struct X11ToolTargetsTests {
    let xvfb: TerminalsUnderXvfb
    let targets: HelperTargets

    init() throws {
        xvfb = try #require(TerminalsUnderXvfb.current)
        targets = HelperTargets(
            session: DesktopSession(environment: xvfb.environment.merging(["XDG_SESSION_TYPE": "x11"]) { $1 }), searchPath: "/usr/bin:/bin")
    }

    @Test func theLayoutsCharactersANewlineAndATabArriveAsThemselves() async throws {
        let terminal = try await xvfb.openTerminal()
        let text = "Dictated on X11, typed key by key: 0123456789 !#%&*+=?\nsecond line\ttab "

        let target = try targets.xtest().get()
        try await target.deliver(text)

        #expect(target.method == .xtest)
        try await waitUntilTyped(text) { terminal.typed() }
    }

    @Test func accentsHangulAndAnEmojiOutsideTheLayoutArriveOnlyWhenTheClientKeepsUp() async throws {
        let terminal = try await xvfb.openTerminal()
        let text = "Grüße aus Köln, café naïve — 한국어 😀"

        try await targets.xtest().get().deliver(text)

        // Measured beside two busy cores: of 15 runs, 1 to 7 arrived whole; with the layout's characters, 15.
        await withKnownIssue(
            "xdotool maps a spare key to a character outside the layout and back right after: a late client drops it",
            isIntermittent: true
        ) {
            try await waitUntilTyped(text) { terminal.typed() }
        }
    }

    @Test func shellMetacharactersAndALeadingDashAreTypedAndRunNothing() async throws {
        let terminal = try await xvfb.openTerminal()
        let marker = FileManager.default.temporaryDirectory.appendingPathComponent("notula-ran-\(UUID().uuidString)").path
        let text = "-- ; rm -rf ~ $(touch \(marker)) `touch \(marker)` && touch \(marker) | \"'\\ --delay 900 key Return"

        try await targets.xtest().get().deliver(text)

        try await waitUntilTyped(text) { terminal.typed() }
        #expect(!FileManager.default.fileExists(atPath: marker))
    }

    @Test func withAGermanLayoutZYUmlautsAndSharpSArriveAsThemselves() async throws {
        try xvfb.setKeyboardLayout("de")
        defer { try? xvfb.setKeyboardLayout("us") }
        let terminal = try await xvfb.openTerminal()
        let text = "zy ZY äöü ÄÖÜ ß @€ Zürich"

        try await targets.xtest().get().deliver(text)

        try await waitUntilTyped(text) { terminal.typed() }
    }

    @Test func tenThousandCharactersOfHostileTextOnTheClipboardAreWhatXclipReturns() async throws {
        let text = "-n " + String(repeating: "Grüße — 한국어 😀\n-- ; $(echo hi) ", count: 400)
        #expect(text.count > 10_000)

        let target = try targets.clipboard().get()
        try await target.deliver(text)

        #expect(target.method == .clipboard)
        let pasted = try output(
            of: ["/usr/bin/xclip", "-o", "-selection", "clipboard"], environment: xvfb.environment.merging(["LC_ALL": "C.UTF-8"]) { $1 })
        #expect(pasted == text)
    }

    @Test func theVirtualKeyboardIsNotOfferedInAnX11Session() {
        #expect(throws: DeliveryError.self) { try targets.virtualKeyboard().get() }
    }
}
