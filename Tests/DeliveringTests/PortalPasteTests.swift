import DBus
import Delivering
import Foundation
import NotulaTestSupport
import TestPasses
import Testing

/// On GNOME 48 the RemoteDesktop session comes with a clipboard (the Clipboard portal): text with characters off
/// the keyboard layout, or long, is pasted, whole, into a real GTK4 window on a real, headless GNOME Shell 48, and
/// what the user had copied is put back; short text on the layout is still typed. The consent dialog is answered
/// through AT-SPI as a user would. One Shell for the suite.
@Suite(.serialized, .tags(.desktop)) struct PortalPasteTests {
    @Test func textOffTheLayoutOrLongIsPastedWholeThroughTheSessionsClipboard() async throws {
        let host = try desktop(await Gnome48Host.shared())
        let target = try await host.openTypingTarget()
        let bus = try await host.connect()
        defer { Task { await bus.close() } }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("notula-paste-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let keyboard = PortalKeyboard(
            bus: bus, restoreTokenFile: folder.appendingPathComponent("restore-token").path, consentTimeout: .seconds(60))

        try await host.setClipboardText("copied before, ünïcode 한")
        let answer = try host.answerRemoteDesktopDialog(.allow)
        let memo = "Hello, wörld — 안녕하세요, Straße ½ -- ; rm -rf ~ "
        let began = ContinuousClock.now
        try await keyboard.deliver(memo)
        print("Pasted \(memo.count) characters through the portal's clipboard in \(ContinuousClock.now - began), the dialog included")
        try await answer.answered()
        try await target.waitForText(memo)
        #expect(target.changes == 1, "pasted at once, not typed")
        // What the user had copied is back.
        #expect(try await host.clipboardText() == "copied before, ünïcode 한")

        // Printable ASCII is typed, as on every desktop; the next paste puts back what the session put back.
        try await keyboard.deliver("and more ")
        try await target.waitForText(memo + "and more ")
        #expect(target.changes == 1 + 9)
        try await keyboard.deliver("à la fin. ")
        try await target.waitForText(memo + "and more à la fin. ")
        #expect(target.changes == 1 + 9 + 1)
        #expect(try await host.clipboardText() == "copied before, ünïcode 한")

        // A long text is pasted too, even of ASCII alone: typed, 300 characters would take ten seconds.
        let long = String(repeating: "Long memo, ", count: 30)
        try await keyboard.deliver(long)
        try await target.waitForText(memo + "and more à la fin. " + long)
        #expect(target.changes == 1 + 9 + 1 + 1)
        #expect(try await host.clipboardText() == "copied before, ünïcode 한")

        // An image has no text to put back: the clipboard is left with an empty text, not with the dictation.
        try await host.setClipboardImage(Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]))
        try await keyboard.deliver("환자는 오늘 퇴원합니다 ")
        try await target.waitForText(memo + "and more à la fin. " + long + "환자는 오늘 퇴원합니다 ")
        let left = try await host.clipboardText()
        #expect(left?.contains("퇴원") != true, "the clipboard holds \(String(describing: left))")
    }

    @Test func withNoWindowToPasteIntoItSaysSoAndLeavesTheTextOnTheClipboard() async throws {
        let host = try desktop(await Gnome48Host.shared())
        try await host.waitUntilNothingHasTheFocus()
        let bus = try await host.connect()
        defer { Task { await bus.close() } }
        let keyboard = PortalKeyboard(bus: bus, restoreTokenFile: "/nonexistent/restore-token", consentTimeout: .seconds(60))

        let answer = try host.answerRemoteDesktopDialog(.allow)
        let refused = await #expect(throws: DeliveryError.self) { try await keyboard.deliver("안녕하세요 ") }
        try await answer.answered()

        #expect(refused?.message.contains("paste it yourself") == true, "\(String(describing: refused))")
        #expect(try await host.clipboardText() == "안녕하세요 ")
    }
}
