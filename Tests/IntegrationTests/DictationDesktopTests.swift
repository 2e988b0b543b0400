import DBus
import Foundation
import NotulaContract
import NotulaTestSupport
import Testing

/// notulad types a memo's text into a real window: through the RemoteDesktop portal on a real, headless GNOME Shell 43,
/// its consent dialog answered as a user would. One Shell for the suite.
@Suite("Dictation into real desktops", .serialized)
struct DictationDesktopTests {
    /// notulad on the Shell's session bus, told it is in a GNOME Wayland session, transcribing Korean.
    private static func serviceOnGNOME(_ host: GnomeShellHost, modelPlace place: URL) async throws -> ServiceUnderTest {
        try await ServiceUnderTest.start(
            environment: [
                "VOSK_MODEL_PATH": place.path, "XDG_SESSION_TYPE": "wayland", "XDG_CURRENT_DESKTOP": "GNOME", "WAYLAND_DISPLAY": "wayland-0",
            ],
            settings: [#""locale": "ko-KR""#], on: PrivateBus(attachedTo: host.busAddress))
    }

    @Test func onGNOMEThePortalTypesTheMemoIntoTheFocusedWindow() async throws {
        let host = try await gnomeShell()
        let place = try modelPlace()
        defer { try? FileManager.default.removeItem(at: place) }
        let target = try await host.openTypingTarget()
        let service = try await Self.serviceOnGNOME(host, modelPlace: place)

        let answer = try host.answerRemoteDesktopDialog(.allow)
        let (memo, signals) = try await dictate("annyeong haseyo, notula imnida", to: "type", into: service)
        let outcome = try await deliveryOutcome(in: signals)
        try await answer.answered()

        #expect(outcome.isSignal(.delivered), "\(outcome.body) \(service.log)")
        #expect(try outcome.argument(0, as: ObjectPath.self) == memo)
        #expect(try outcome.argument(1, as: String.self) == "portal")
        let text = try await service.memo(.getTranscript, of: memo).argument(0, as: String.self)
        #expect(!text.isEmpty)
        try await target.waitForText(text + " ")
    }

    @Test func onGNOMEARefusedRequestSaysToAllowItAndKeepsTheMemo() async throws {
        let host = try await gnomeShell()
        let place = try modelPlace()
        defer { try? FileManager.default.removeItem(at: place) }
        let target = try await host.openTypingTarget()
        let service = try await Self.serviceOnGNOME(host, modelPlace: place)

        let answer = try host.answerRemoteDesktopDialog(.cancel)
        let (memo, signals) = try await dictate("annyeong haseyo", to: "type", into: service)
        let outcome = try await deliveryOutcome(in: signals)
        try await answer.answered()

        #expect(outcome.isSignal(.failed))
        #expect(try outcome.argument(0, as: String.self) == NotulaErrorName.outputUnavailable.rawValue.rawValue)
        #expect(try outcome.argument(1, as: String.self).contains("allow"))
        #expect(try await service.property(.status, of: memo) == .string("done"))
        #expect(target.text == "")
    }

    /// The suite's host; the test is skipped, saying why, where GNOME Shell cannot run.
    private func gnomeShell() async throws -> GnomeShellHost {
        switch await GnomeShellHost.shared() {
        case .success(let host): return host
        case .failure(let unavailable):
            print("Skipped: \(unavailable.reason)")
            try Test.cancel("GNOME Shell unavailable: \(unavailable.reason)")
        }
    }
}
