import DBus
import Foundation
import NotulaContract
import NotulaTestSupport
import Testing

/// "Toggle recording" and "Hold to talk" bound through a real GlobalShortcuts portal — KDE Plasma 5.27's, which
/// takes the shortcuts from CreateSession — and pressed as a user would, through the desktop's RemoteDesktop portal.
@Suite("Shortcuts of the desktop's own: toggle, and hold to talk", .serialized)
struct GlobalShortcutsTests {
    private static let toggle: [PortalChords.Key] = [.control, .alt, .n]
    private static let holdToTalk: [PortalChords.Key] = [.control, .alt, .m]

    @Test func onKDEHoldingTheKeyRecordsAndReleasingItSendsTheTextToTheUsersOutput() async throws {
        let host = try desktop(await PlasmaHost.shared())
        let place = try modelPlace()
        defer { try? FileManager.default.removeItem(at: place) }
        let target = try await host.openTypingTarget(.qt5)
        let display = try #require(host.environment["XDG_RUNTIME_DIR"]) + "/wayland-0"
        let service = try await ServiceUnderTest.start(
            environment: [
                "VOSK_MODEL_PATH": place.path, "XDG_SESSION_TYPE": "wayland", "XDG_CURRENT_DESKTOP": "KDE", "WAYLAND_DISPLAY": display,
                "DISPLAY": "",
            ],
            settings: [#""locale": "ko-KR""#, #""output": "type""#], on: PrivateBus(attachedTo: host.busAddress))
        try await service.waitForLog("Shortcuts bound")
        print(service.log.split(separator: "\n").filter { $0.contains("Shortcuts bound") }.joined())
        let keys = try await PortalChords.open(on: try await host.connect())

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
}
