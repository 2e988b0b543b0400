import DBus
import Foundation
import NotulaContract
import NotulaTestSupport
import TestPasses
import Testing

/// "Toggle recording" and "Hold to talk" bound through a real GlobalShortcuts portal — KDE Plasma 5.27's, which
/// takes the shortcuts from CreateSession, and GNOME 48's, which asks the user in a dialog and answers 2 when it
/// worked — and pressed as a user would, through the desktop's remote-desktop keyboard.
@Suite("Shortcuts of the desktop's own: toggle, and hold to talk", .serialized, .tags(.desktop))
struct GlobalShortcutsTests {
    private static let toggle: [DesktopKeys.Key] = [.control, .alt, .n]
    private static let holdToTalk: [DesktopKeys.Key] = [.control, .alt, .m]

    @Test func withoutThePortalNothingIsBoundAndTheJournalSaysSoOnce() async throws {
        let service = try await ServiceUnderTest.start()
        try await service.waitForLog("No GlobalShortcuts portal on this desktop")
        try await service.recorder(.start)
        try await service.recorder(.discard)
        #expect(service.log.components(separatedBy: "GlobalShortcuts").count == 2, "\(service.log)")
        #expect(!service.log.contains("app id"), "no registry to speak of without a portal")
    }

    @Test func onKDEHoldingTheKeyRecordsAndReleasingItSendsTheTextToTheUsersOutput() async throws {
        let host = try desktop(await PlasmaHost.shared())
        let place = try modelPlace()
        defer { try? FileManager.default.removeItem(at: place) }
        let target = try await host.openTypingTarget(.qt5)
        let service = try await serviceOnKDE(host, modelPlace: place, settings: [#""output": "type""#])
        try await service.waitForLog("Shortcuts bound")
        print(service.log.split(separator: "\n").filter { $0.contains("Shortcuts bound") }.joined())
        let keys = try await DesktopKeys.openPortal(on: try await host.connect())

        try await keys.tap(Self.toggle)
        try await service.waitForState("recording")
        try await keys.tap(Self.toggle)
        try await service.waitForState("paused")
        try await service.recorder(.discard)

        let signals = try await service.recorderSignals()
        try await keys.press(Self.holdToTalk)
        try await service.waitForState("recording")
        try await service.sink?.play(try speech("annyeong haseyo, notula imnida"))
        try await keys.release(Self.holdToTalk)
        let outcome = try await deliveryOutcome(in: signals)

        #expect(outcome.isSignal(.delivered), "\(outcome.body) \(service.log)")
        let memo = try outcome.argument(0, as: ObjectPath.self)
        let text = try await service.memo(.getTranscript, of: memo).argument(0, as: String.self)
        #expect(text.unicodeScalars.contains { $0.value >= 0xAC00 }, "a Hangul transcript: \(text)")
        try await target.waitForText(text + " ")
    }

    /// Before the test that accepts: GNOME keeps shortcuts it bound for the app id, and would not ask again.
    @Test func onGNOME48ANoInTheDialogIsNotAskedAgainAtTheNextStart() async throws {
        let host = try desktop(await Gnome48Host.shared())
        let desktopFile = try await host.installNotulaDesktopFile()
        defer { try? FileManager.default.removeItem(at: desktopFile) }
        let answer = try host.answerShortcutsDialog(.cancel)
        let environment = ["XDG_SESSION_TYPE": "wayland", "XDG_CURRENT_DESKTOP": "GNOME", "WAYLAND_DISPLAY": "wayland-0"]
        let service = try await ServiceUnderTest.start(environment: environment, on: PrivateBus(attachedTo: host.busAddress))
        try await answer.answered()
        try await service.waitForLog("the user said no")
        let settings = try String(contentsOf: service.home.appendingPathComponent("config/notula/settings.json"), encoding: .utf8)
        #expect(settings.contains(#""globalShortcuts" : false"#), "\(settings)")

        #expect(service.stop() == 0)
        let again = try await ServiceUnderTest.start(
            environment: environment, on: PrivateBus(attachedTo: host.busAddress), home: service.home)
        try await again.recorder(.start)
        try await again.recorder(.discard)
        #expect(!again.log.contains("hortcut"), "\(again.log)")
    }

    @Test func onGNOME48TheUserAddsTheShortcutsOnceAndHoldingTheKeySendsAMemo() async throws {
        let host = try desktop(await Gnome48Host.shared())
        let place = try modelPlace()
        defer { try? FileManager.default.removeItem(at: place) }
        // Only while this test runs: with it, every notulad on this Shell binds its shortcuts, and asks.
        let desktopFile = try await host.installNotulaDesktopFile()
        defer { try? FileManager.default.removeItem(at: desktopFile) }
        let answer = try host.answerShortcutsDialog(.allow)
        let service = try await ServiceUnderTest.start(
            environment: [
                "VOSK_MODEL_PATH": place.path, "XDG_SESSION_TYPE": "wayland", "XDG_CURRENT_DESKTOP": "GNOME",
                "WAYLAND_DISPLAY": "wayland-0",
            ],
            settings: [#""locale": "ko-KR""#], on: PrivateBus(attachedTo: host.busAddress))
        try await answer.answered()
        try await service.waitForLog("Shortcuts bound")
        print(service.log.split(separator: "\n").filter { $0.contains("Shortcuts bound") }.joined())
        let keys = try await DesktopKeys.openMutter(on: try await host.connect())

        let signals = try await service.recorderSignals()
        try await keys.press(Self.holdToTalk)
        try await service.waitForState("recording")
        try await service.sink?.play(try speech("annyeong haseyo, notula imnida"))
        try await keys.release(Self.holdToTalk)
        var processed: ObjectPath?
        for await message in signals where message.isSignal(.processed) {
            processed = try message.argument(0, as: ObjectPath.self)
            break
        }
        let memo = try #require(processed)
        let text = try await service.memo(.getTranscript, of: memo).argument(0, as: String.self)
        #expect(text.unicodeScalars.contains { $0.value >= 0xAC00 }, "a Hangul transcript: \(text)")
    }
}
