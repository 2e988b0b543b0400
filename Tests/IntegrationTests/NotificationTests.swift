import DBus
import Foundation
import NotulaContract
import NotulaTestSupport
import Testing

@Suite("Desktop notifications through python3-dbusmock's notification server", .serialized)
struct NotificationTests {
    @Test func theLiveNotificationCarriesItsButtonsHintsAndReplacesID() async throws {
        let bus = try PrivateBus()
        let server = try await NotificationDaemonMock(on: bus)
        let service = try await ServiceUnderTest.start(on: bus)

        try await service.recorder(.toggle)
        let started = try #require(await server.nextNotification())
        #expect(started.replacesID == 0)
        #expect(started.summary == "Recording")
        #expect(started.body.hasPrefix("Recording since "), "\(started.body)")
        #expect(started.actions == ["toggle", "Pause", "process", "Send", "discard", "Discard"])
        #expect(started.hints["resident"] == .boolean(true))
        #expect(started.hints["desktop-entry"] == .string("org.notula.Notula"))
        #expect(started.hints["category"] == .string("x-notula.recording"))
        #expect(started.hints["urgency"] == .byte(1))
        #expect(started.hints["suppress-sound"] == .boolean(true))
        #expect(started.expireTimeout == 0)

        try await service.recorder(.toggle)
        let paused = try #require(await server.nextNotification())
        #expect(paused.replacesID == 1, "replaced in place")
        #expect(paused.summary == "Paused")
        #expect(paused.body.contains(" recorded, started at "), "while paused the duration stays true: \(paused.body)")
        #expect(paused.actions == ["toggle", "Resume", "process", "Send", "discard", "Discard"])

        try await service.recorder(.discard)
        // The template declares CloseNotification(i), not the spec's (u): it records the id as an int32.
        #expect(await server.next("CloseNotification") == [.int32(1)])
    }

    @Test func aButtonMovesStateAsTheBusMethodDoesAndAForeignIdChangesNothing() async throws {
        let bus = try PrivateBus()
        let server = try await NotificationDaemonMock(on: bus)
        let service = try await ServiceUnderTest.start(on: bus)
        var events = try await service.recorderSignals().makeAsyncIterator()

        try await service.recorder(.toggle)
        #expect(try #require(await server.nextNotification()).replacesID == 0)
        let id: UInt32 = 1  // the mock numbers its notifications from 1
        #expect(try await states(until: "recording", in: &events) == ["recording"])

        try await server.invoke("toggle", on: id)
        #expect(try await states(until: "paused", in: &events) == ["paused"])
        #expect(try await service.property(.state) == .string("paused"))
        #expect(try #require(await server.nextNotification()).summary == "Paused")

        // Signals from one sender arrive in order: had the foreign discard done anything, idle would come first.
        try await server.invoke("discard", on: id + 41)
        try await server.invoke("toggle", on: id)
        #expect(try await states(until: "recording", in: &events) == ["recording"])

        try await server.invoke("process", on: id)
        #expect(try await states(until: "idle", in: &events) == ["processing", "idle"])
        #expect(await server.next("CloseNotification") == [.int32(Int32(id))])
    }

    @Test func aServerWithoutActionsGetsNoButtons() async throws {
        let bus = try PrivateBus()
        let server = try await NotificationDaemonMock(on: bus, capabilities: ["body"])
        let service = try await ServiceUnderTest.start(on: bus)
        try await service.recorder(.toggle)
        let live = try #require(await server.nextNotification())
        #expect(live.summary == "Recording")
        #expect(live.actions.isEmpty)
        try await service.recorder(.toggle)
        #expect(try #require(await server.nextNotification()).actions.isEmpty)
        #expect(try await service.property(.state) == .string("paused"), "the bus object stays the control")
    }

    @Test func withoutAServerEverythingElseWorksAndOneLineSaysSo() async throws {
        let service = try await ServiceUnderTest.start()
        try await service.waitForLog("No notification server on the session bus")
        try await service.recorder(.toggle)
        try await service.recorder(.toggle)
        #expect(try await service.property(.state) == .string("paused"))
        try await service.recorder(.discard)
        #expect(try await service.property(.state) == .string("idle"))
        #expect(service.log.components(separatedBy: "notification server").count - 1 == 1, "\(service.log)")
    }

    @Test func aServerThatRestartsGetsTheLiveNotificationAgain() async throws {
        let bus = try PrivateBus()
        let first = try await NotificationDaemonMock(on: bus)
        let service = try await ServiceUnderTest.start(on: bus)
        try await service.recorder(.toggle)
        #expect(try #require(await first.nextNotification()).replacesID == 0)

        first.stop()
        try await service.waitForLog("The notification server left the session bus")
        try await service.recorder(.toggle)
        #expect(try await service.property(.state) == .string("paused"))

        let second = try await NotificationDaemonMock(on: bus)
        let again = try #require(await second.nextNotification())
        #expect(again.replacesID == 0, "the first server's id means nothing to the second")
        #expect(again.summary == "Paused")

        // The user dismisses it: the recording goes on, and the next transition brings it back.
        try await second.dismiss(1)
        try await service.recorder(.toggle)
        let back = try #require(await second.nextNotification())
        #expect(back.summary == "Recording")
        try await service.recorder(.discard)
    }
}

@Suite("Desktop notifications on a real server: dunst under Xvfb", .serialized)
struct DunstNotificationTests {
    @Test func theLiveNotificationIsDrawnDismissedIntoTheHistoryAndBack() async throws {
        let bus = try PrivateBus()
        let dunst = try await DunstUnderXvfb(on: bus)
        let service = try await ServiceUnderTest.start(on: bus)
        try await service.recorder(.toggle)
        try await dunst.waitUntilDisplayed(1)
        let shot = packageRoot.appendingPathComponent(".build/test-artefacts/live-notification.png")
        try dunst.screenshot(to: shot)
        print("The live notification on dunst: \(shot.path)")
        #expect(((try FileManager.default.attributesOfItem(atPath: shot.path))[.size] as? Int ?? 0) > 1000)

        // The user closes it (reason 2): the recording goes on, and the next transition brings it back.
        try dunst.dunstctl("close")
        try await dunst.waitUntilDisplayed(0)
        let history = try dunst.history()
        #expect(history.first?.appName == "Notula", "\(history)")
        #expect(history.first?.summary == "Recording", "\(history)")
        #expect(try await service.property(.state) == .string("recording"))
        try await service.recorder(.toggle)
        try await dunst.waitUntilDisplayed(1)
        try await service.recorder(.discard)
        try await dunst.waitUntilDisplayed(0)
    }
}
