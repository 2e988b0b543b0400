import DBus
import Foundation
import NotulaContract
import NotulaTestSupport
import TestPasses
import Testing

/// notulad types a memo's text into a GTK4 window on a real, headless GNOME Shell 48 (Debian 13's, in a trixie root)
/// through the RemoteDesktop portal version 2: the consent dialog answered once, as a user would, and its
/// `restore_token` sparing the next run of notulad the question; the Korean memo, on no keyboard layout, pasted
/// through the session's clipboard (the Clipboard portal), what the user had copied put back; and the output
/// `clipboard` through that clipboard. One Shell for the suite.
@Suite("Dictation into GNOME 48", .serialized, .tags(.desktop))
struct DictationGnome48Tests {
    /// notulad on the Shell's session bus, told it is in a GNOME Wayland session, transcribing Korean; `home` to start
    /// again over the folders of one that ran before.
    private static func serviceOnGNOME48(_ host: Gnome48Host, modelPlace place: URL, home: URL? = nil) async throws
        -> ServiceUnderTest
    {
        try await ServiceUnderTest.start(
            environment: [
                "VOSK_MODEL_PATH": place.path, "XDG_SESSION_TYPE": "wayland", "XDG_CURRENT_DESKTOP": "GNOME",
                "WAYLAND_DISPLAY": "wayland-0",
            ],
            settings: home == nil ? [#""locale": "ko-KR""#] : [], on: PrivateBus(attachedTo: host.busAddress), home: home)
    }

    @Test func theClipboardOutputLeavesTheMemoOnTheSessionsClipboard() async throws {
        let host = try desktop(await Gnome48Host.shared())
        let place = try modelPlace()
        defer { try? FileManager.default.removeItem(at: place) }
        let service = try await Self.serviceOnGNOME48(host, modelPlace: place)

        let answer = try host.answerRemoteDesktopDialog(.allow)
        let (memo, signals) = try await dictate("annyeong haseyo", to: "clipboard", into: service)
        let outcome = try await deliveryOutcome(in: signals)
        try await answer.answered()

        #expect(outcome.isSignal(.delivered), "\(outcome.body) \(service.log)")
        #expect(try outcome.argument(1, as: String.self) == "clipboard")
        let text = try await service.memo(.getTranscript, of: memo).argument(0, as: String.self)
        #expect(!text.isEmpty)
        #expect(try await host.clipboardText() == text + " ")
    }

    @Test func afterTheFirstConsentARestartedServiceTypesWithoutAsking() async throws {
        let host = try desktop(await Gnome48Host.shared())
        let place = try modelPlace()
        defer { try? FileManager.default.removeItem(at: place) }
        let target = try await host.openTypingTarget()
        let first = try await Self.serviceOnGNOME48(host, modelPlace: place)

        try await host.setClipboardText("copied before")
        let answer = try host.answerRemoteDesktopDialog(.allow)
        let (memo, signals) = try await dictate("annyeong haseyo, notula imnida", to: "type", into: first)
        let outcome = try await deliveryOutcome(in: signals)
        try await answer.answered()

        #expect(outcome.isSignal(.delivered), "\(outcome.body) \(first.log)")
        #expect(try outcome.argument(1, as: String.self) == "portal")
        let text = try await first.memo(.getTranscript, of: memo).argument(0, as: String.self)
        #expect(!text.isEmpty)
        try await target.waitForText(text + " ")
        // Hangul is on no keyboard layout: pasted through the session's clipboard, what was there put back.
        #expect(target.changes == 1, "pasted at once, not typed")
        #expect(try await host.clipboardText() == "copied before")
        let token = first.home.appendingPathComponent("config/notula/remote-desktop-token")
        let attributes = try FileManager.default.attributesOfItem(atPath: token.path)
        #expect(attributes[.posixPermissions] as? Int == 0o600)
        #expect(try !String(contentsOf: token, encoding: .utf8).isEmpty)

        #expect(first.stop() == 0)
        let again = try await Self.serviceOnGNOME48(host, modelPlace: place, home: first.home)
        // Nobody answers a dialog now: had the desktop asked, the delivery would wait for the answer and fail.
        let (secondMemo, secondSignals) = try await dictate("gamsa hamnida", to: "type", into: again)
        let secondOutcome = try await deliveryOutcome(in: secondSignals)

        #expect(secondOutcome.isSignal(.delivered), "\(secondOutcome.body) \(again.log)")
        let secondText = try await again.memo(.getTranscript, of: secondMemo).argument(0, as: String.self)
        #expect(!secondText.isEmpty)
        try await target.waitForText(text + " " + secondText + " ")
        #expect(target.changes == 2)
        let clipboard = try await host.clipboardText()
        // Not put back in 2 runs of 13 on a loaded 2-core VM: the new session's read of the clipboard, then held by
        // mutter for the stopped notulad, raced with something not yet found (issue 16's note).
        withKnownIssue("the copied text is not always put back after a restart", isIntermittent: true) {
            #expect(clipboard == "copied before", "the clipboard holds \(String(describing: clipboard))")
        }
    }
}
