import Delivering
import Foundation
import NotulaTestSupport
import TestPasses
import Testing

/// Text typed through xdotool (XTEST) into a real xterm on Xvfb, and put on its clipboard with xclip: what the
/// terminal's file and `xclip -o` hold is what a user would see.
@Suite(
    .serialized,
    .enabled(
        if: installed("Xvfb", "xterm", "xdotool", "xmodmap", "xclip", "setxkbmap"),
        "needs Xvfb, xterm, xdotool, xmodmap, xclip and setxkbmap"),
    .terminalsUnderXvfb, .tags(.lightDesktop))
struct X11ToolTargetsTests {
    let xvfb: TerminalsUnderXvfb
    let targets: HelperTargets

    init() throws {
        xvfb = try #require(TerminalsUnderXvfb.current)
        targets = xvfb.helperTargets
    }

    @Test func theLayoutsCharactersANewlineAndATabArriveAsThemselves() async throws {
        let terminal = try await xvfb.openTerminal()
        let text = "Dictated on X11, typed key by key: 0123456789 !#%&*+=?\nsecond line\ttab "

        let target = try targets.xtest().get()
        try await target.deliver(text)

        #expect(target.method == .xtest)
        try await waitUntilTyped(text) { terminal.typed() }
    }

    @Test func accentsHangulAndAnEmojiOutsideTheLayoutArriveAsThemselvesTextAfterText() async throws {
        let terminal = try await xvfb.openTerminal()
        let texts = ["Grüße aus Köln, café naïve — 한국어 😀", " Ελληνικά, русский, 日本語 ✓", " again: ß é 한 😀"]
        let target = try targets.xtest().get()

        for text in texts { try await target.deliver(text) }

        try await waitUntilTyped(texts.joined()) { terminal.typed() }
    }

    @Test func spareKeysServeTextAfterTextMoreCharactersThanThereAreKeys() async throws {
        let terminal = try await xvfb.openTerminal()
        // 4 texts of 15 syllables each, all different: 60 characters for the 19 spare keys of Xvfb.
        let texts = (0..<4).map { text in
            String(String.UnicodeScalarView((0..<15).compactMap { Unicode.Scalar(0xB000 + text * 15 + $0) })) + " "
        }

        for text in texts { try await targets.xtest().get().deliver(text) }

        try await waitUntilTyped(texts.joined()) { terminal.typed() }
    }

    @Test func moreCharactersOutsideTheLayoutThanSpareKeysAreRefusedBeforeAnyIsTyped() async throws {
        let terminal = try await xvfb.openTerminal()
        let syllables = String(String.UnicodeScalarView((0xAC00..<0xAC00 + 300).compactMap(Unicode.Scalar.init)))

        let error = await #expect(throws: DeliveryError.self) { try await targets.xtest().get().deliver("abc " + syllables) }

        #expect(error?.message.hasPrefix("The text holds 300 characters the keyboard layout has no key for") == true)
        #expect(terminal.typed() == "")
    }

    @Test func shellMetacharactersAndALeadingDashAreTypedAndRunNothing() async throws {
        let terminal = try await xvfb.openTerminal()
        let marker = FileManager.default.temporaryDirectory.appendingPathComponent("notula-ran-\(UUID().uuidString)").path
        let text = "-- ; rm -rf ~ $(touch \(marker)) `touch \(marker)` && touch \(marker) | \"'\\ --delay 900 key Return"

        try await targets.xtest().get().deliver(text)

        try await waitUntilTyped(text) { terminal.typed() }
        #expect(!FileManager.default.fileExists(atPath: marker))
    }

    @Test func aSpokenNewLineRunsNothingInXtermsShell() async throws {
        let (_, shell) = try await xvfb.openShell()
        try await expectSpokenNewLineRunsNothing(
            in: shell, through: dictation(into: xvfb.session, through: targets), method: .xtest, terminal: "xterm",
            pressControlT: xvfb.pressControlT)
    }

    @Test(.enabled(if: hasGTK4ForPython(), "needs python3-gi and GTK 4"))
    func aSpokenNewLineStaysReturnInAGTKWindow() async throws {
        let entry = try await xvfb.openTextEntry()
        try await expectSpokenNewLineIsReturnOutsideATerminal(
            in: entry.typed, through: dictation(into: xvfb.session, through: targets), method: .xtest)
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
        // Pasted twice: the program left serving the clipboard answers every paste, not only the first.
        for _ in 0..<2 {
            let pasted = try output(
                of: ["/usr/bin/xclip", "-o", "-selection", "clipboard"], environment: xvfb.environment.merging(["LC_ALL": "C.UTF-8"]) { $1 }
            )
            #expect(pasted == text)
        }
    }

    @Test func theVirtualKeyboardIsNotOfferedInAnX11Session() {
        #expect(throws: DeliveryError.self) { try targets.virtualKeyboard().get() }
    }
}
