import DBus
import Foundation
import NotulaContract
import NotulaTestSupport
import Testing

@Suite("The tray icon on a real host: waybar's tray in a headless sway", .serialized)
struct WaybarTrayTests {
    @Test func waybarRegistersTheItemAndDrawsAnIconPerStateHidingItWhenIdle() async throws {
        let bus = try PrivateBus(openToEveryUser: true)
        let waybar = try await WaybarInSway(on: bus)
        let watcher = try await bus.connect()
        var registered = try await watcher.signals(
            matching: MatchRule(sender: "org.kde.StatusNotifierWatcher", member: "StatusNotifierItemRegistered")
        ).makeAsyncIterator()
        let service = try await ServiceUnderTest.start(on: bus)
        let item = try #require(await registered.next()?.argument(0, as: String.self))
        #expect(item.hasPrefix("org.kde.StatusNotifierItem-") && item.hasSuffix("-1/StatusNotifierItem"), "\(item)")
        #expect(try await waybar.registeredItems() == [item])

        try await service.recorder(.toggle)
        let artefacts = packageRoot.appendingPathComponent(".build/test-artefacts")
        let recordingShot = artefacts.appendingPathComponent("waybar-tray-recording.png")
        let recordingIcon = try await waybar.waitForTray(in: recordingShot) { $0.showsIcon }
        print("The tray icon in waybar, recording: \(recordingShot.path)")

        try await service.recorder(.toggle)
        let pausedShot = artefacts.appendingPathComponent("waybar-tray-paused.png")
        _ = try await waybar.waitForTray(in: pausedShot) { $0.showsIcon && $0.signature != recordingIcon.signature }
        print("The tray icon in waybar, paused: \(pausedShot.path)")

        // Passive again: waybar (by default) hides the item, and the bar is as before the recording.
        try await service.recorder(.discard)
        _ = try await waybar.waitForTray(in: artefacts.appendingPathComponent("waybar-tray-idle.png")) { !$0.showsIcon }
        await watcher.close()
    }
}
