import DBus
import Delivering
import Foundation
import NotulaTestSupport
import TestPasses
import Testing

/// The RemoteDesktop portal typing into a real GTK4 window on a real, headless GNOME Shell 43, its consent dialog
/// answered through AT-SPI as a user would. One Shell for the suite; one window at a time has the focus.
@Suite(.serialized, .tags(.desktop)) struct PortalKeyboardTests {
    @Test func typesASCIIAccentsAndHangulIntoTheFocusedWindowAskingOnce() async throws {
        let host = try desktop(await GnomeShellHost.shared())
        let target = try await host.openTypingTarget()
        let bus = try await host.connect()
        defer { Task { await bus.close() } }
        let tokenFile = FileManager.default.temporaryDirectory.appendingPathComponent("notula-portal-\(UUID().uuidString)/restore-token")
        let keyboard = PortalKeyboard(bus: bus, restoreTokenFile: tokenFile.path, consentTimeout: .seconds(60))
        #expect(await PortalKeyboard.isAvailable(on: bus))

        let answer = try host.answerRemoteDesktopDialog(.allow)
        try await keyboard.deliver("Hello, wörld 한")
        try await answer.answered()
        try await target.waitForText("Hello, wörld 한")

        // The session is kept: no dialog this time (nobody would answer it).
        let sentence = " -- ; rm -rf ~ \"quoted\" $HOME & 100% done."
        let began = ContinuousClock.now
        try await keyboard.deliver(sentence)
        print("Typed \(sentence.count) characters through the portal in \(ContinuousClock.now - began)")
        try await target.waitForText("Hello, wörld 한 -- ; rm -rf ~ \"quoted\" $HOME & 100% done.")
        // Debian 12's portal is version 1: it gives no restore token, so none is kept.
        #expect(!FileManager.default.fileExists(atPath: tokenFile.path))
    }

    @Test func afterTheUserStopsTheRemoteControlTheNextDeliveryAsksAgain() async throws {
        let host = try desktop(await GnomeShellHost.shared())
        let target = try await host.openTypingTarget()
        let bus = try await host.connect()
        defer { Task { await bus.close() } }
        let keyboard = PortalKeyboard(bus: bus, restoreTokenFile: "/nonexistent/restore-token", consentTimeout: .seconds(60))
        let first = try host.answerRemoteDesktopDialog(.allow)
        try await keyboard.deliver("One.")
        try await first.answered()
        try await target.waitForText("One.")

        #expect(try await host.stopRemoteControl() >= 1)
        let second = try host.answerRemoteDesktopDialog(.allow)
        try await keyboard.deliver(" Two.")
        try await second.answered()
        try await target.waitForText("One. Two.")
    }

    @Test func aCancelledRequestSaysToAllowItAndTypesNothing() async throws {
        let host = try desktop(await GnomeShellHost.shared())
        let target = try await host.openTypingTarget()
        let bus = try await host.connect()
        defer { Task { await bus.close() } }
        let keyboard = PortalKeyboard(bus: bus, restoreTokenFile: "/nonexistent/restore-token", consentTimeout: .seconds(60))

        let answer = try host.answerRemoteDesktopDialog(.cancel)
        let error = await #expect(throws: DeliveryError.self) { try await keyboard.deliver("never typed") }
        try await answer.answered()
        #expect(error?.message.contains("allow") == true)
        #expect(target.text == "")
    }

    @Test func anUnansweredRequestIsWithdrawnAndSaysToAllowIt() async throws {
        let host = try desktop(await GnomeShellHost.shared())
        let target = try await host.openTypingTarget()
        let bus = try await host.connect()
        defer { Task { await bus.close() } }
        let keyboard = PortalKeyboard(bus: bus, restoreTokenFile: "/nonexistent/restore-token", consentTimeout: .seconds(2))

        let error = await #expect(throws: DeliveryError.self) { try await keyboard.deliver("never typed") }
        #expect(error?.message.contains("Nobody answered") == true)
        // The dialog goes with the request: it does not wait for a user who may answer long after.
        try await host.waitUntilGone(windowTitled: "Remote desktop")
        #expect(target.text == "")
    }

    @Test func aBusWithoutThePortalHasNoPortalKeyboard() async throws {
        let bus = try PrivateBus()
        let client = try await bus.connect()
        defer { Task { await client.close() } }
        #expect(await !PortalKeyboard.isAvailable(on: client))
    }
}
