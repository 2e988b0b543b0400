import DBus
import Foundation
import NotulaContract
import NotulaTestSupport
import TestPasses
import Testing

/// Notula's StatusNotifierItem in the tray of KDE Plasma 5.27 — the desktop whose protocol it is — in a real,
/// headless plasmashell on KWin, with the real notulad on the session's bus: what the panel shows, seen in KWin's
/// screenshots, and the item's menu opened and picked from with the RemoteDesktop portal's pointer, as a hand would.
@Suite("PlasmaTrayTests", .serialized, .tags(.desktop))
struct PlasmaTrayTests {
    /// The rows of Plasma's default panel, along the bottom of the screen, right of the (empty) task manager: the tray
    /// and the clock.
    static let panelStrip = ScreenPixels.Area(x: 640, y: PlasmaPanel.screenHeight - 40, width: 640, height: 40)
    /// Where menus and popups open, above the panel.
    static let abovePanel = ScreenPixels.Area(x: 0, y: 0, width: PlasmaPanel.screenWidth, height: PlasmaPanel.screenHeight - 42)
    /// Where the tray's popups open: above the panel's right half.
    static let trayPopups = ScreenPixels.Area(x: 640, y: 0, width: 640, height: abovePanel.height)
    static let artefacts = packageRoot.appendingPathComponent(".build/test-artefacts")

    @Test func plasmaShowsTheIdleItemTuckedAwayTheRedSymbolWhileRecordingAndItsMenuSends() async throws {
        let host = try desktop(await PlasmaHost.shared())
        try desktop(PlasmaPanel.canRun())
        let panel = try await PlasmaPanel(on: host)
        let itemsBefore = try await panel.registeredItems()

        let service = try await ServiceUnderTest.start(on: PrivateBus(attachedTo: host.busAddress))
        try await poll(within: .seconds(10)) {
            try await panel.registeredItems().count == itemsBefore.count + 1
        } otherwise: {
            NotShown(what: "notulad's item in the watcher's list")
        }
        #expect(try await service.trayProperty("Status") == .string("Passive"))
        #expect(try await service.trayProperty("IconName") == .string("audio-input-microphone-symbolic"))

        // Passive, the item is tucked away in the tray's popup of hidden items, behind the arrow left of the clock.
        let idlePanel = try await steadyScreenshot(of: panel, named: "plasma-tray-idle-panel.png")
        #expect(try ScreenPixels.red(in: Self.panelStrip, of: idlePanel).share == 0, "no record symbol while idle")
        let arrow = try expanderArrow(in: idlePanel)
        try panel.click(.left, atX: arrow.x, y: arrow.y)
        let idleShot = try await steadyScreenshot(of: panel, named: "plasma-tray-idle.png", watching: Self.abovePanel)
        #expect(try ScreenPixels.popup(between: idlePanel, and: idleShot, in: Self.abovePanel) != nil, "the popup opened")
        print("Plasma's tray, idle: its popup of hidden items, Notula's tile first, in \(idleShot.path)")
        // Notula's tile comes first, highlighted: its icon is Breeze's microphone, drawn from the item's icon name.
        let icons = [
            "audio-input-microphone-symbolic", "media-record-symbolic", "media-playback-pause-symbolic", "content-loading-symbolic",
        ]
        let matches = try ScreenPixels.iconMatches(onTheHighlightedTileIn: Self.trayPopups, of: idleShot, names: icons)
        #expect(matches[icons[0]] ?? 0 > 0.7 && icons.dropFirst().allSatisfy { matches[$0] ?? 1 < 0.5 }, "\(matches)")
        // Closed again, and the pointer away from the arrow's tooltip: the screen is as before.
        try panel.click(.left, atX: arrow.x, y: arrow.y)
        try panel.click(.none, atX: PlasmaPanel.screenWidth / 2, y: PlasmaPanel.screenHeight / 2)
        try await poll(within: .seconds(10)) {
            try await ScreenPixels.popup(
                between: idlePanel, and: steadyScreenshot(of: panel, watching: Self.abovePanel), in: Self.abovePanel) == nil
        } otherwise: {
            NotShown(what: "the popup of hidden items closing")
        }

        // Active while recording: the item steps into the panel, drawn from its icon name, Breeze's red record symbol.
        try await service.recorder(.toggle)
        try await poll(within: .seconds(10)) {
            try await ScreenPixels.red(in: Self.panelStrip, of: steadyScreenshot(of: panel)).share > 0
        } otherwise: {
            NotShown(what: "the red record symbol in the panel")
        }
        let recordingShot = try await steadyScreenshot(of: panel, named: "plasma-tray-recording.png")
        let symbol = try ScreenPixels.red(in: Self.panelStrip, of: recordingShot)
        #expect(symbol.share > 0.002, "a filled red disc, some 90 pixels inside its rim: \(symbol)")
        print("Plasma's tray, recording: \(recordingShot.path), the red symbol at \(symbol.x),\(symbol.y)")

        // Its menu opens above the panel: Pause, Send, Discard, a separator, Language.
        try panel.click(.right, atX: symbol.x, y: symbol.y)
        let menuShot = Self.artefacts.appendingPathComponent("plasma-tray-menu.png")
        let menu = try await waitForPopup(in: panel, since: recordingShot, shotAt: menuShot) { $0.lines.count == 4 }
        print("Its menu, \(menu): \(menuShot.path)")
        // The second line is Send: picking it leaves the recorder idle with one memo, which Pause or Discard would not.
        let send = menu.lines[1]
        try panel.click(.left, atX: menu.box.centre.x, y: (send.top + send.bottom) / 2)

        try await service.waitForState("idle")
        let memos = try await service.library(.list, [.uint32(0), .uint32(10)]).argument(0, as: [ObjectPath].self)
        #expect(memos.count == 1)
        let memo = try #require(memos.first, "Send made no memo")
        #expect(try await service.property(.duration, of: memo) != .double(0), "the memo holds what was recorded")
        try await poll(within: .seconds(10)) {
            try await ScreenPixels.red(in: Self.panelStrip, of: steadyScreenshot(of: panel, named: "plasma-tray-sent.png")).share == 0
        } otherwise: {
            NotShown(what: "the panel without the record symbol once the memo was sent")
        }
    }
}

/// What the screen never showed.
struct NotShown: Error, CustomStringConvertible {
    let what: String
    var description: String { "Plasma never showed \(what)" }
}

/// A screenshot once the panel is done drawing: `area` (its strip) the same in two screenshots in a row (plasmashell
/// tells nobody when it has drawn, and fades icons and popups in).
private func steadyScreenshot(
    of panel: PlasmaPanel, named name: String = "plasma-tray-latest.png", watching area: ScreenPixels.Area = PlasmaTrayTests.panelStrip
) async throws -> URL {
    let shot = PlasmaTrayTests.artefacts.appendingPathComponent(name)
    let previous = PlasmaTrayTests.artefacts.appendingPathComponent("plasma-tray-previous.png")
    defer { try? FileManager.default.removeItem(at: previous) }
    try panel.screenshot(to: previous)
    try await poll(within: .seconds(15)) {
        try panel.screenshot(to: shot)
        if try ScreenPixels.changed(between: previous, and: shot, in: area) == nil { return true }
        try FileManager.default.removeItem(at: previous)
        try FileManager.default.copyItem(at: shot, to: previous)
        return false
    } otherwise: {
        NotShown(what: "a panel done drawing; see \(shot.path)")
    }
    return shot
}

/// Takes screenshots into `shot` until a popup (a menu) that opened since the screenshot `before` shows as
/// `isComplete` wants it (it fades in).
private func waitForPopup(
    in panel: PlasmaPanel, since before: URL, shotAt shot: URL, until isComplete: (ScreenPixels.Popup) -> Bool
) async throws -> ScreenPixels.Popup {
    var popup: ScreenPixels.Popup?
    try await poll(within: .seconds(10)) {
        try panel.screenshot(to: shot)
        popup = try ScreenPixels.popup(between: before, and: shot, in: PlasmaTrayTests.abovePanel)
        return popup.map(isComplete) ?? false
    } otherwise: {
        NotShown(what: "the popup above the panel (found \(String(describing: popup))); see \(shot.path)")
    }
    return popup!
}

/// The tray's arrow to its hidden items, in a screenshot: the mark just left of the clock, the widest of the marks
/// along the panel's strip (the show-desktop button is right of it).
private func expanderArrow(in shot: URL) throws -> (x: Int, y: Int) {
    let marks = try ScreenPixels.marks(along: PlasmaTrayTests.panelStrip, of: shot)
    guard let clock = marks.indices.max(by: { marks[$0].right - marks[$0].left < marks[$1].right - marks[$1].left }), clock > 0
    else { throw NotShown(what: "the clock and an arrow left of it; marks \(marks) in \(shot.path)") }
    return ((marks[clock - 1].left + marks[clock - 1].right) / 2, PlasmaTrayTests.panelStrip.centre.y)
}
