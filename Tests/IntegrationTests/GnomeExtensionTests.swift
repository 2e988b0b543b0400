import DBus
import Foundation
import NotulaContract
import NotulaTestSupport
import TestPasses
import Testing

/// Notula's extension inside a real, headless GNOME Shell — Debian 12's 43 (the scripts build) and Debian 13's 48
/// (the modules build, as users of current GNOME get it) — built for it by `make gnome-extension`, installed and
/// enabled as a user does, with the real notulad on the Shell's bus: what the top bar shows, read from the Shell and
/// seen in its screenshots, and the menu driving the recorder.
@Suite("The GNOME Shell extension in a real GNOME Shell 43 and 48", .serialized, .tags(.desktop))
struct GnomeExtensionTests {
    /// The Shells it runs in, by major version.
    static let shells = [43, 48]

    @Test(arguments: shells)
    func theIndicatorShowsIdleThenTheRedDotAndTheTimeTickingAndSendEndsTheRecording(shell: Int) async throws {
        let host = try await Self.shellWithExtension(shell)
        let artefacts = packageRoot.appendingPathComponent(".build/test-artefacts")
        _ = try await waitForIndicator(in: host) { $0.accessibleName == "Notula: Not running" }
        let service = try await ServiceUnderTest.start(on: PrivateBus(attachedTo: host.busAddress))

        let idle = try await waitForIndicator(in: host) { $0.accessibleName == "Notula: Ready to record" }
        #expect(idle.inTopBar && idle.iconName == "audio-input-microphone-symbolic" && idle.time == "")
        #expect(idle.item("Record")?.sensitive == true && idle.item("Send")?.sensitive == false, "\(idle.items)")
        let idleShot = artefacts.appendingPathComponent("gnome-shell-\(shell)-idle.png")
        try await host.screenshot(to: idleShot)
        print("The indicator in GNOME Shell \(shell), idle: \(idleShot.path)")
        #expect(try redShare(of: #require(idle.iconArea), in: idleShot) == 0)

        let menuShot = artefacts.appendingPathComponent("gnome-shell-\(shell)-menu.png")
        try await pick("Record", in: host, screenshotOfTheMenu: menuShot)
        print("Its menu: \(menuShot.path)")
        try await service.waitForState("recording")
        let recording = try await waitForIndicator(in: host) {
            $0.iconName == "media-record-symbolic" && $0.time != "" && $0.timeArea != nil
        }
        #expect(recording.accessibleName.hasPrefix("Notula: Recording, "), "\(recording.accessibleName)")

        let (first, firstShot) = try await screenshotWithSteadyTime(in: host, named: "gnome-shell-\(shell)-recording-1.png")
        try await waitForIndicator(in: host) { $0.time != first.time }
        let (second, secondShot) = try await screenshotWithSteadyTime(in: host, named: "gnome-shell-\(shell)-recording-2.png")
        print("Recording, \(first.time) then \(second.time): \(firstShot.path) \(secondShot.path)")
        let timeArea = try #require(first.timeArea)
        #expect(try pixels(of: timeArea, in: firstShot) != pixels(of: timeArea, in: secondShot))
        #expect(try redShare(of: #require(first.iconArea), in: firstShot) > 0.1, "the record symbol is red")
        #expect(try redShare(of: #require(second.iconArea), in: secondShot) > 0.1, "the record symbol is red")

        try await pick("Send", in: host)
        try await service.waitForState("idle")
        let memos = try await service.library(.list, [.uint32(0), .uint32(10)]).argument(0, as: [ObjectPath].self)
        #expect(memos.count == 1)
        let memo = try #require(memos.first, "Send made no memo")
        #expect(try await service.property(.duration, of: memo) != .double(0), "the memo holds what was recorded")
        let after = try await waitForIndicator(in: host) { $0.accessibleName == "Notula: Ready to record" }
        #expect(after.time == "" && after.iconName == "audio-input-microphone-symbolic")
    }

    @Test(arguments: shells)
    func itsMenuPausesResumesAndDiscards(shell: Int) async throws {
        let host = try await Self.shellWithExtension(shell)
        let service = try await ServiceUnderTest.start(on: PrivateBus(attachedTo: host.busAddress))
        try await waitForIndicator(in: host) { $0.accessibleName == "Notula: Ready to record" }

        try await pick("Record", in: host)
        try await service.waitForState("recording")
        try await waitForIndicator(in: host) { $0.item("Pause")?.sensitive == true }
        try await pick("Pause", in: host)
        try await service.waitForState("paused")
        let paused = try await waitForIndicator(in: host) { $0.iconName == "media-playback-pause-symbolic" }
        #expect(paused.accessibleName.hasPrefix("Notula: Paused, ") && paused.time != "", "\(paused.accessibleName)")
        #expect(paused.item("Resume")?.sensitive == true && paused.item("Discard")?.sensitive == true, "\(paused.items)")
        #expect(!paused.items.contains { $0.label.hasPrefix("Also heard by") }, "nobody else listens: \(paused.items)")
        // Another program reads the live text: the menu names it, until it closes its pipe.
        let watch = try RunningCommand(
            binaryDirectory.appendingPathComponent("notula").path, ["watch"], environment: service.environment)
        try await waitForIndicator(in: host) { $0.item("Also heard by: notula") != nil }
        #expect(watch.interrupt() == 0)
        try await waitForIndicator(in: host) { !$0.items.contains { $0.label.hasPrefix("Also heard by") } }

        try await pick("Resume", in: host)
        try await service.waitForState("recording")
        try await waitForIndicator(in: host) { $0.iconName == "media-record-symbolic" }
        try await pick("Discard", in: host)
        try await service.waitForState("idle")
        // The row goes as the discarded capture is dropped, which may come just after the state.
        var memos: [ObjectPath] = []
        try await poll(within: .seconds(5)) {
            memos = try await service.library(.list, [.uint32(0), .uint32(10)]).argument(0, as: [ObjectPath].self)
            return memos.isEmpty
        } otherwise: {
            ShellRefused(description: "the discarded recording is still in the library: \(memos)")
        }
        try await waitForIndicator(in: host) { $0.accessibleName == "Notula: Ready to record" && $0.time == "" }
    }

    /// The Shell disables the user's extensions while the screen is locked, and enables them again after.
    @Test(arguments: shells)
    func disabledAndEnabledAgainItShowsTheRecordingStillUnderWay(shell: Int) async throws {
        let host = try await Self.shellWithExtension(shell)
        let service = try await ServiceUnderTest.start(on: PrivateBus(attachedTo: host.busAddress))
        try await waitForIndicator(in: host) { $0.accessibleName == "Notula: Ready to record" }
        // Through the bus, as a key binding starts it.
        try await service.recorder(.start)
        try await waitForIndicator(in: host) { $0.iconName == "media-record-symbolic" }

        try await host.disableExtension(Self.uuid)
        let gone = "!(\(javaScriptString(Self.uuid)) in Main.panel.statusArea)"
        #expect(try await host.evaluateOrThrow(gone) == "true", "the indicator left the top bar")
        try await host.enableExtension(Self.uuid)
        let back = try await waitForIndicator(in: host) { $0.iconName == "media-record-symbolic" && $0.time != "" }
        #expect(back.inTopBar && back.accessibleName.hasPrefix("Notula: Recording, "), "\(back.accessibleName)")
        try await pick("Pause", in: host)
        try await service.waitForState("paused")
        try await service.recorder(.discard)
    }

    @Test(arguments: shells)
    func copyTheLastTranscriptPutsTheMemosTextOnTheClipboard(shell: Int) async throws {
        let host = try await Self.shellWithExtension(shell)
        let place = try modelPlace()
        defer { try? FileManager.default.removeItem(at: place) }
        let (service, ready) = try await Self.koreanService(in: host, modelPlace: place)
        #expect(ready.item("Copy the last transcript") == nil, "nothing to copy yet: \(ready.items)")

        let signals = try await service.recorderSignals()
        try await pick("Record", in: host)
        try await service.waitForState("recording")
        try await service.sink?.play(try speech("annyeong haseyo, notula imnida"))
        try await pick("Send", in: host)
        var outcome: Message?
        for await message in signals where message.isSignal(.processed) || message.isSignal(.failed) {
            outcome = message
            break
        }
        let processed = try #require(outcome)
        #expect(processed.isSignal(.processed), "\(processed.body)")
        let memo = try processed.argument(0, as: ObjectPath.self)
        let text = try await service.memo(.getTranscript, of: memo).argument(0, as: String.self)
        #expect(!text.isEmpty)

        try await waitForIndicator(in: host) { $0.item("Copy the last transcript")?.sensitive == true }
        try await pick("Copy the last transcript", in: host)
        try await poll(within: .seconds(5), until: { try await host.clipboardText() == text }) {
            ShellRefused(description: "the clipboard does not hold the memo's text \(text)")
        }
    }

    @Test(arguments: shells)
    func itsLanguageMenuPicksTheLocaleAndTheShellLoggedNoErrorOfIt(shell: Int) async throws {
        let host = try await Self.shellWithExtension(shell)
        let place = try modelPlace()
        defer { try? FileManager.default.removeItem(at: place) }
        let service = try await ServiceUnderTest.start(
            environment: ["VOSK_MODEL_PATH": place.path, "LANG": "en_US.UTF-8"], on: PrivateBus(attachedTo: host.busAddress))
        try await waitForIndicator(in: host) { $0.accessibleName == "Notula: Ready to record" }
        #expect(try await service.property(.locale) == .string("en-US"))

        let shot = packageRoot.appendingPathComponent(".build/test-artefacts/gnome-shell-\(shell)-languages.png")
        let languages = try await pickLanguage("ko-KR", in: host, screenshotOfTheList: shot)
        print("Its language list: \(shot.path)")
        #expect(languages.contains("ko-KR") && languages.contains("en-US (downloads its model)"), "\(languages)")
        var locale = Value.string("")
        try await poll(within: .seconds(10)) {
            locale = try await service.property(.locale)
            return locale == .string("ko-KR")
        } otherwise: {
            ShellRefused(description: "the recorder's Locale stayed \(locale)")
        }
        let log = host.shellLog
        #expect(log.contains("gnome-shell"), "the Shell's log is where it is read")
        let errors = log.split(separator: "\n").filter { $0.contains(Self.uuid) }
        #expect(errors.isEmpty, "\(errors.joined(separator: "\n"))")
    }

    /// The words being spoken under the timer, as the guesses and utterances `WatchText` gives any client; gone at
    /// the end, and not shown at all once the menu's switch hides them.
    @Test(arguments: shells)
    func whileRecordingTheWordsBeingSpokenShowUnderTheTimerUnlessHidden(shell: Int) async throws {
        let host = try await Self.shellWithExtension(shell)
        let place = try modelPlace()
        defer { try? FileManager.default.removeItem(at: place) }
        let (service, ready) = try await Self.koreanService(in: host, modelPlace: place)
        #expect(ready.item("Show the words while recording") != nil && ready.words == "", "\(ready)")
        let reader = try await LiveTextReader.watching(service)
        defer { close(reader.descriptor) }
        let (first, quiet, _) = try twoSentences()

        try await pick("Record", in: host)
        try await service.waitForState("recording")
        try await service.sink?.play(first)
        let shown = try await waitForIndicator(in: host) { !$0.words.isEmpty && $0.wordsArea != nil && $0.timeArea != nil }
        let shot = packageRoot.appendingPathComponent(".build/test-artefacts/gnome-shell-\(shell)-words.png")
        try await host.screenshot(to: shot)
        print("The words under the timer: \(shot.path)")
        try await service.sink?.play(quiet)
        try await pick("Send", in: host)
        let lines = await reader.linesUntilEnd()
        #expect(Set(lines.compactMap(\.text)).contains(shown.words), "\(shown.words) is none of \(lines)")
        let (words, time) = try (#require(shown.wordsArea), #require(shown.timeArea))
        #expect(words.y >= time.y + time.height - 1, "under the timer: \(words) \(time)")
        try await waitForIndicator(in: host) { $0.words == "" && $0.accessibleName == "Notula: Ready to record" }

        try await pick("Show the words while recording", in: host)
        try await pick("Record", in: host)
        try await service.waitForState("recording")
        try await service.sink?.play(first)
        try await service.sink?.play(quiet)
        // An utterance ended: there were words to show.
        for await line in reader.lines where line.kind == "final" { break }
        #expect(try await waitForIndicator(in: host) { _ in true }.words == "")
        try await pick("Discard", in: host)
    }

    /// notulad on the Shell's bus transcribing Korean, once the indicator shows it ready.
    private static func koreanService(in host: any GnomeShell, modelPlace place: URL) async throws -> (ServiceUnderTest, Indicator) {
        let service = try await ServiceUnderTest.start(
            environment: ["VOSK_MODEL_PATH": place.path], settings: [#""locale": "ko-KR""#], on: PrivateBus(attachedTo: host.busAddress))
        return (service, try await waitForIndicator(in: host) { $0.accessibleName == "Notula: Ready to record" })
    }

    static let uuid = notulaExtensionUUID

    /// The shared Shell of that major version with the extension's build for it installed and enabled.
    private static func shellWithExtension(_ major: Int) async throws -> any GnomeShell {
        let host: any GnomeShell = major == 48 ? try desktop(await Gnome48Host.shared()) : try desktop(await GnomeShellHost.shared())
        try await host.installNotulaExtension()
        return host
    }
}

/// What Notula's indicator shows in the top bar, read from its widgets in the Shell.
struct Indicator: Decodable {
    struct Item: Decodable {
        let label: String
        let sensitive: Bool
    }

    /// Where an actor is on the screen, in pixels.
    struct Area: Decodable {
        let x: Int
        let y: Int
        let width: Int
        let height: Int
    }

    let inTopBar: Bool
    let iconName: String
    /// The time beside the icon; empty while hidden.
    let time: String
    let accessibleName: String
    let items: [Item]
    /// Where the icon and the time are on the screen; nil while hidden or not laid out yet.
    let iconArea: Area?
    let timeArea: Area?
    /// The words being spoken, shown under the timer; empty while hidden.
    let words: String
    let wordsArea: Area?

    func item(_ label: String) -> Item? { items.first { $0.label == label } }

    static let script = """
        (() => {
            const indicator = Main.panel.statusArea[\(javaScriptString(GnomeExtensionTests.uuid))];
            if (!indicator)
                return null;
            const area = actor => {
                const [[x, y], [width, height]] = [actor.get_transformed_position(), actor.get_transformed_size()];
                // Not laid out yet (just shown) or hidden: NaN.
                if (!actor.is_mapped() || [x, y, width, height].some(Number.isNaN))
                    return null;
                return {x: Math.round(x), y: Math.round(y), width: Math.round(width), height: Math.round(height)};
            };
            return {
                inTopBar: Main.panel.contains(indicator) && indicator.is_mapped(),
                iconName: indicator._icon.icon_name,
                time: indicator._time.visible ? indicator._time.text : '',
                accessibleName: indicator.accessible_name,
                items: indicator.menu._getMenuItems().filter(item => item.label && item.visible)
                    .map(item => ({label: item.label.text, sensitive: item.sensitive})),
                iconArea: area(indicator._icon),
                timeArea: area(indicator._time),
                words: indicator._words.visible ? indicator._words.text : '',
                wordsArea: area(indicator._words),
            };
        })()
        """
}

/// The indicator once it shows what `isWanted` looks for.
@discardableResult
private func waitForIndicator(in host: any GnomeShell, until isWanted: (Indicator) -> Bool) async throws -> Indicator {
    var shown: Indicator?
    try await poll(within: .seconds(10)) {
        shown = try JSONDecoder().decode(Indicator?.self, from: Data(await host.evaluateOrThrow(Indicator.script).utf8))
        return shown.map(isWanted) ?? false
    } otherwise: {
        ShellRefused(description: "the indicator never showed what was awaited; it showed \(String(describing: shown))")
    }
    return shown!
}

/// Opens the indicator's menu and picks the item labelled `label`, as a click does; a screenshot of the open menu is
/// saved first when asked.
private func pick(_ label: String, in host: any GnomeShell, screenshotOfTheMenu shot: URL? = nil) async throws {
    let indicator = "Main.panel.statusArea[\(javaScriptString(GnomeExtensionTests.uuid))]"
    _ = try await host.evaluateOrThrow("\(indicator).menu.open(false)")
    if let shot { try await host.screenshot(to: shot) }
    let picked = try await host.evaluateOrThrow(
        """
        (() => {
            const item = \(indicator).menu._getMenuItems().find(item => item.label?.text === \(javaScriptString(label)));
            if (!item?.sensitive)
                return false;
            // A switch's activate reads the event that clicked it; one picked from here has none.
            if (item.toggle) {
                item.toggle();
                \(indicator).menu.close(false);
            } else {
                item.activate(imports.gi.Clutter.get_current_event());
            }
            return true;
        })()
        """)
    guard picked == "true" else { throw ShellRefused(description: "the menu has no item \(label) to pick") }
}

/// Opens the indicator's Language submenu and picks `locale` in it; returns the labels the list showed.
private func pickLanguage(_ locale: String, in host: any GnomeShell, screenshotOfTheList shot: URL) async throws -> [String] {
    let languages = "Main.panel.statusArea[\(javaScriptString(GnomeExtensionTests.uuid))]._languages"
    _ = try await host.evaluateOrThrow("\(languages)._getTopMenu().open(false); \(languages).menu.open(false)")
    try await host.screenshot(to: shot)
    let labels = try JSONDecoder().decode(
        [String].self,
        from: Data(try await host.evaluateOrThrow("\(languages).menu._getMenuItems().map(item => item.label.text)").utf8))
    let picked = try await host.evaluateOrThrow(
        """
        (() => {
            const item = \(languages).menu._getMenuItems().find(item => item.label.text === \(javaScriptString(locale)));
            item?.activate(imports.gi.Clutter.get_current_event());
            return item !== undefined;
        })()
        """)
    guard picked == "true" else { throw ShellRefused(description: "the language list has no \(locale): \(labels)") }
    return labels
}

/// A screenshot and the indicator as it was when it was taken: the same time read before and after.
private func screenshotWithSteadyTime(in host: any GnomeShell, named name: String) async throws -> (Indicator, URL) {
    let shot = packageRoot.appendingPathComponent(".build/test-artefacts/\(name)")
    var shown: Indicator?
    try await poll(within: .seconds(10)) {
        let before = try await waitForIndicator(in: host) { $0.timeArea != nil }
        try await host.screenshot(to: shot)
        shown = before
        return try await waitForIndicator(in: host) { _ in true }.time == before.time
    } otherwise: {
        ShellRefused(description: "the time changed during every screenshot")
    }
    return (shown!, shot)
}

/// A digest of the pixels of `area` in the picture `file`.
private func pixels(of area: Indicator.Area, in file: URL) throws -> String {
    try output(of: "convert", file.path, "-crop", crop(area), "+repage", "-format", "%#", "info:")
}

/// The share of the pixels of `area` in `file` that are red (the record symbol's #e5484d, antialiased).
private func redShare(of area: Indicator.Area, in file: URL) throws -> Double {
    let mean = try output(
        of: "convert", file.path, "-crop", crop(area), "+repage", "-fx", "r > 0.6 && g < 0.45 && b < 0.45", "-format", "%[fx:mean]",
        "info:")
    return Double(mean.trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
}

private func crop(_ area: Indicator.Area) -> String { "\(area.width)x\(area.height)+\(area.x)+\(area.y)" }
