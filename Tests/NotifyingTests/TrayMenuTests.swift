import DBus
import Recording
import Testing

@testable import Notifying

@Suite("The tray's menu and presentation, made from the state")
struct TrayMenuTests {
    let locales = LocaleOptions(current: "nl-NL", supported: ["de-DE", "nl-NL"], installed: ["nl-NL"])

    @Test func aTransitionChangesPropertiesOfTheSameItems() {
        let idle = TrayMenu(state: .idle, locales: locales, texts: .english)
        let recording = TrayMenu(state: .recording, locales: locales, texts: .english)
        guard case .properties(let items) = recording.change(from: idle) else {
            Issue.record("expected a change of properties")
            return
        }
        #expect(items.map(\.id) == [1, 2, 3])
        #expect(items[0].properties["label"] == .string("Pause"))
        #expect(recording.change(from: recording) == .none)
    }

    @Test func anotherLocaleListChangesTheLayout() {
        let before = TrayMenu(state: .idle, locales: locales, texts: .english)
        let more = LocaleOptions(current: "nl-NL", supported: ["de-DE", "en-US", "nl-NL"], installed: ["nl-NL"])
        #expect(TrayMenu(state: .idle, locales: more, texts: .english).change(from: before) == .layout)
    }

    @Test func localesAreRadioItemsTheCurrentCheckedAndMissingModelsSaidSo() {
        let menu = TrayMenu(state: .paused, locales: locales, texts: .dutch)
        let language = menu.item(5)
        #expect(language?.properties["label"] == .string("Taal"))
        #expect(language?.children.map { $0.properties["label"] } == [.string("de-DE (model wordt gedownload)"), .string("nl-NL")])
        #expect(language?.children.map { $0.properties["toggle-state"] } == [.int32(0), .int32(1)])
        #expect(menu.item(101)?.command == .pickLocale("nl-NL"))
        #expect(menu.item(1)?.properties["label"] == .string("Hervatten"))
    }

    @Test(arguments: [Int32.min, -2, -1, Int32.max])
    func anyNegativeDepthIsTheWholeTreeAndNoDepthOverflows(depth: Int32) {
        let root = TrayMenu(state: .idle, locales: locales, texts: .english).root
        #expect(root.layout(properties: [], depth: depth) == root.layout(properties: [], depth: 2))
        #expect(
            root.layout(properties: ["label"], depth: 0)
                == .structure([.int32(0), .dictionary(key: "s", value: "v", []), .array(element: "v", [])]))
    }

    @Test func passiveWhenIdleActiveWithARecordingAndTheTimeSpelled() {
        let idle = TrayPresentation(state: .idle, elapsed: .zero, texts: .english)
        #expect(idle.status == .passive)
        let paused = TrayPresentation(state: .paused, elapsed: .seconds(134), texts: .english)
        #expect(paused.status == .active)
        #expect(paused.iconName == "media-playback-pause-symbolic")
        #expect(paused.toolTipTitle == "Paused")
        #expect(paused.toolTipBody == "2 minutes 14 seconds")
    }
}

@Suite("Who else hears the recording, as the tray and the live notification say it")
struct HeardByTests {
    private func live(_ state: RecordingState, heardBy: [String]) -> LiveRecording {
        LiveRecording(
            recording: RecordingID("1"), state: state, pauseReason: nil, elapsed: .seconds(75), start: ClockTime(hour: 14, minute: 3),
            heardBy: heardBy)
    }

    @Test func theLiveNotificationNamesEachProgramWhileARecordingExists() {
        let recording = DesktopNotification.live(
            live(.recording, heardBy: ["org.example.App", "notula"]), texts: .english, capabilities: [])
        #expect(recording.body == "Recording since 14:03\nAlso heard by: org.example.App, notula")
        let paused = DesktopNotification.live(live(.paused, heardBy: ["notula"]), texts: .dutch, capabilities: [])
        #expect(paused.body.hasSuffix("\nOok gehoord door: notula"), "\(paused.body)")
        let processing = DesktopNotification.live(live(.processing, heardBy: ["notula"]), texts: .english, capabilities: [])
        #expect(!processing.body.contains("heard"), "nobody hears a recording being transcribed: \(processing.body)")
        #expect(DesktopNotification.live(live(.recording, heardBy: []), texts: .english, capabilities: []).body == "Recording since 14:03")
    }

    @Test func aProgramsNameIsShownAsWrittenWhereMarkupIsRead() {
        let named = DesktopNotification.live(live(.recording, heardBy: ["<b>x&y</b>"]), texts: .english, capabilities: ["body-markup"])
        #expect(named.escaped(for: ["body-markup"]).body.hasSuffix("Also heard by: &lt;b&gt;x&amp;y&lt;/b&gt;"))
        let tray = TrayPresentation(state: .recording, elapsed: .seconds(5), heardBy: ["<b>x&y</b>"], texts: .english)
        #expect(tray.toolTipBody == "5 seconds\nAlso heard by: &lt;b&gt;x&amp;y&lt;/b&gt;")
        #expect(TrayPresentation(state: .idle, elapsed: .zero, heardBy: ["notula"], texts: .english).toolTipBody == "")
    }
}
