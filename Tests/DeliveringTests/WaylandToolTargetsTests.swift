import Delivering
import Foundation
import NotulaTestSupport
import TestPasses
import Testing

/// Text typed through wtype into a real foot terminal in a headless sway, and put on its clipboard with wl-copy:
/// what the terminal's file and wl-paste hold is what a user would see.
@Suite(
    .serialized, .enabled(if: installed("sway", "foot", "wtype", "wl-copy", "wl-paste"), "needs sway, foot, wtype and wl-clipboard"),
    .terminalsInSway, .tags(.lightDesktop))
struct WaylandToolTargetsTests {
    let sway: TerminalsInSway
    let targets: HelperTargets

    init() throws {
        sway = try #require(TerminalsInSway.current)
        targets = sway.helperTargets
    }

    @Test func accentsHangulAnEmojiAndANewlineArriveAsThemselves() async throws {
        let terminal = try await sway.openTerminal()
        defer { try? sway.close(terminal) }
        let text = "Grüße aus Köln, café naïve — 한국어 😀\nsecond line\ttab "

        let target = try targets.virtualKeyboard().get()
        try await target.deliver(text)

        #expect(target.method == .virtualKeyboard)
        try await waitUntilTyped(text) { terminal.typed() }
    }

    @Test func shellMetacharactersAndALeadingDashAreTypedAndRunNothing() async throws {
        let terminal = try await sway.openTerminal()
        defer { try? sway.close(terminal) }
        let marker = FileManager.default.temporaryDirectory.appendingPathComponent("notula-ran-\(UUID().uuidString)").path
        let text = "-- ; rm -rf ~ $(touch \(marker)) `touch \(marker)` && touch \(marker) | \"'\\ -k Return -M ctrl"

        try await targets.virtualKeyboard().get().deliver(text)

        try await waitUntilTyped(text) { terminal.typed() }
        #expect(!FileManager.default.fileExists(atPath: marker))
    }

    @Test func aSpokenNewLineRunsNothingInFootsShell() async throws {
        let (terminal, shell) = try await sway.openShell()
        defer { try? sway.close(terminal) }
        try await expectSpokenNewLineRunsNothing(
            in: shell, through: dictation(into: sway.session, through: targets), method: .virtualKeyboard, terminal: "foot",
            pressControlT: sway.pressControlT)
    }

    @Test(.enabled(if: hasGTK4ForPython(), "needs python3-gi and GTK 4"))
    func aSpokenNewLineStaysReturnInAGTKWindow() async throws {
        let entry = try await sway.openTextEntry()
        defer { try? sway.close(entry) }
        try await expectSpokenNewLineIsReturnOutsideATerminal(
            in: entry.typed, through: dictation(into: sway.session, through: targets), method: .virtualKeyboard)
    }

    @Test func withAGermanLayoutZYUmlautsAndSharpSArriveAsThemselves() async throws {
        try sway.setKeyboardLayout("de")
        defer { try? sway.setKeyboardLayout("us") }
        let terminal = try await sway.openTerminal()
        defer { try? sway.close(terminal) }
        let text = "zy ZY äöü ÄÖÜ ß @€ Zürich"

        try await targets.virtualKeyboard().get().deliver(text)

        try await waitUntilTyped(text) { terminal.typed() }
    }

    @Test func tenThousandCharactersOfHostileTextOnTheClipboardAreWhatWlPasteReturns() async throws {
        let text = "-n " + String(repeating: "Grüße — 한국어 😀\n-- ; $(echo hi) ", count: 400)
        #expect(text.count > 10_000)

        let target = try targets.clipboard().get()
        try await target.deliver(text)

        #expect(target.method == .clipboard)
        // Pasted twice: the program left serving the clipboard answers every paste, not only the first.
        for _ in 0..<2 {
            let pasted = try output(
                of: ["/usr/bin/wl-paste", "--no-newline"], environment: sway.environment.merging(["LC_ALL": "C.UTF-8"]) { $1 })
            #expect(pasted == text)
        }
    }

    @Test func xtestIsNotOfferedInAWaylandSession() {
        #expect(throws: DeliveryError.self) { try targets.xtest().get() }
    }
}
