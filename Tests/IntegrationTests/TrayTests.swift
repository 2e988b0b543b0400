import DBus
import Foundation
import NotulaContract
import NotulaTestSupport
import Testing

/// The tray item's objects, as a panel reaches them.
enum Tray {
    static let itemPath = ObjectPath("/StatusNotifierItem")!
    static let itemInterface: InterfaceName = "org.kde.StatusNotifierItem"
    static let menuPath = ObjectPath("/StatusNotifierItem/Menu")!
    static let menuInterface: InterfaceName = "com.canonical.dbusmenu"
}

/// One item of the tray menu, read from `GetLayout`'s `(ia{sv}av)`.
struct MenuEntry {
    let id: Int32
    let properties: [String: Value]
    let children: [MenuEntry]

    init(_ value: Value) throws {
        guard case .structure(let fields) = value, fields.count == 3, case .int32(let id) = fields[0],
            case .array(_, let children) = fields[2]
        else { throw BusError.invalidArgs("Not a dbusmenu layout: \(value)") }
        self.id = id
        properties = try [String: Variant](dbusValue: fields[1]).mapValues(\.value)
        self.children = try children.map { child in
            guard case .variant(let inner) = child else { throw BusError.invalidArgs("A child that is not a variant") }
            return try MenuEntry(inner)
        }
    }

    var label: String { if case .string(let label)? = properties["label"] { label } else { "" } }
    var enabled: Bool { properties["enabled"] != .boolean(false) }
    func child(_ label: String) -> MenuEntry? { children.first { $0.label == label } }
}

extension ServiceUnderTest {
    /// The tray item's name, which notulad owns on a connection of its own, as a panel's host reaches it.
    func trayName() async throws -> BusName { BusName("org.kde.StatusNotifierItem-\(try await processID())-1")! }

    /// Calls a method of the tray item or its menu, as a host does: through the item's name.
    @discardableResult
    func callTray(_ path: ObjectPath, _ interface: InterfaceName?, _ member: MemberName, _ arguments: [Value] = []) async throws
        -> Message
    {
        try await client.call(
            MethodCall(destination: try await trayName(), path: path, interface: interface, member: member, arguments: arguments))
    }

    /// The signals and property changes of the tray's object at `path`, in order, from now on.
    func traySignals(of path: ObjectPath, interface: InterfaceName) async throws -> AsyncStream<Message> {
        let name = try await trayName()
        return try await client.signals(
            matching: MatchRule(sender: name, path: path, interface: interface),
            MatchRule(sender: name, path: path, interface: "org.freedesktop.DBus.Properties", member: "PropertiesChanged"))
    }

    func trayProperty(_ name: String, of path: ObjectPath = Tray.itemPath, interface: InterfaceName = Tray.itemInterface)
        async throws -> Value
    {
        let reply = try await callTray(path, "org.freedesktop.DBus.Properties", "Get", [.string(interface.rawValue), .string(name)])
        return try reply.argument(0, as: Variant.self).value
    }

    /// The whole menu, as a host asks for it.
    func trayMenu() async throws -> MenuEntry {
        let reply = try await callTray(Tray.menuPath, Tray.menuInterface, "GetLayout", [.int32(0), .int32(-1), .array(element: "s", [])])
        return try MenuEntry(reply.body[1])
    }

    /// A click on the tray menu's item `id`.
    func clickTrayMenu(_ id: Int32) async throws {
        _ = try await callTray(Tray.menuPath, Tray.menuInterface, "Event", [.int32(id), .string("clicked"), .variant(.int32(0)), .uint32(0)])
    }
}

/// The names of the signals that come, up to and including `last`.
private func signalNames(until last: String, in signals: inout AsyncStream<Message>.Iterator) async -> [String] {
    var seen: [String] = []
    while seen.last != last, let message = await signals.next() { seen.append(message.member ?? "") }
    return seen
}

/// notulad with a panel's watcher on its bus, which it has registered its tray icon with: the item tells of its
/// changes only while there is one.
private func serviceWithWatcher(environment: [String: String] = [:]) async throws -> (ServiceUnderTest, StatusNotifierWatcherMock) {
    let bus = try PrivateBus()
    let watcher = try await StatusNotifierWatcherMock(on: bus)
    let service = try await ServiceUnderTest.start(environment: environment, on: bus)
    _ = await watcher.nextRegistration()
    return (service, watcher)
}

@Suite("The tray icon: a StatusNotifierItem with a dbusmenu menu, against a mock watcher", .serialized)
struct TrayTests {
    @Test func registersWithTheWatcherThereAtStartAndWithOneThatAppearsLater() async throws {
        let bus = try PrivateBus()
        let watcher = try await StatusNotifierWatcherMock(on: bus)
        let service = try await ServiceUnderTest.start(on: bus)
        let registered = try #require(await watcher.nextRegistration())
        #expect(registered.hasPrefix("org.kde.StatusNotifierItem-"), "\(registered)")
        let itemName = try #require(BusName(registered))
        // notulad's, on a connection of its own: the item's name never reaches the recorder.
        let itemOwner = try #require(try await service.client.owner(of: itemName))
        #expect(try await service.client.processID(of: itemOwner) == service.processID())
        #expect(try await itemOwner != service.client.owner(of: NotulaBus.name))
        // A host reads the item through the name registered, at the specification's path.
        let status = try await service.client.call(
            MethodCall(
                destination: itemName, path: Tray.itemPath, interface: "org.freedesktop.DBus.Properties", member: "Get",
                arguments: [.string(Tray.itemInterface.rawValue), .string("Status")]))
        #expect(try status.argument(0, as: Variant.self).value == .string("Passive"))

        watcher.stop()
        let restarted = try await StatusNotifierWatcherMock(on: bus)
        #expect(await restarted.nextRegistration() == registered)
    }

    @Test func statusIconAndTooltipFollowTheStateAndActivateToggles() async throws {
        let (service, watcher) = try await serviceWithWatcher()
        defer { withExtendedLifetime(watcher) {} }
        var item = try await service.traySignals(of: Tray.itemPath, interface: Tray.itemInterface).makeAsyncIterator()
        #expect(try await service.trayProperty("Status") == .string("Passive"))
        #expect(try await service.trayProperty("IconName") == .string("audio-input-microphone-symbolic"))
        #expect(try await service.trayProperty("Menu") == .objectPath(Tray.menuPath))

        try await service.recorder(.toggle)
        let started = await signalNames(until: "NewToolTip", in: &item)
        #expect(started == ["NewStatus", "NewIcon", "NewToolTip"])
        #expect(try await service.trayProperty("Status") == .string("Active"))
        #expect(try await service.trayProperty("IconName") == .string("media-record-symbolic"))

        // The panel's click: the same transition as Toggle.
        _ = try await service.callTray(Tray.itemPath, Tray.itemInterface, "Activate", [.int32(0), .int32(0)])
        #expect(await signalNames(until: "NewToolTip", in: &item) == ["NewIcon", "NewToolTip"])
        #expect(try await service.property(.state) == .string("paused"))
        guard case .structure(let tip) = try await service.trayProperty("ToolTip"), tip.count == 4 else {
            Issue.record("ToolTip is not (sa(iiay)ss)")
            return
        }
        #expect(tip[2] == .string("Paused"))
        guard case .string(let body) = tip[3] else { return }
        #expect(body.hasSuffix("second") || body.hasSuffix("seconds"), "the time as of the pause, spelled: \(body)")

        try await service.recorder(.discard)
        let ended = await signalNames(until: "NewToolTip", in: &item)
        #expect(ended == ["NewStatus", "NewIcon", "NewToolTip"])
        #expect(try await service.trayProperty("Status") == .string("Passive"))
    }

    @Test func theMenuOffersWhatTheStateAllowsAndItsClicksDriveTheRecorder() async throws {
        let (service, watcher) = try await serviceWithWatcher()
        defer { withExtendedLifetime(watcher) {} }
        var states = try await service.recorderSignals().makeAsyncIterator()
        var menuSignals = try await service.traySignals(of: Tray.menuPath, interface: Tray.menuInterface).makeAsyncIterator()

        let idle = try await service.trayMenu()
        #expect(idle.children.map(\.label) == ["Record", "Send", "Discard", "", "Language"])
        #expect(idle.children.map(\.enabled) == [true, false, false, true, true])
        let locale = try await service.property(.locale)
        let languages = try #require(idle.child("Language")).children
        let checked = languages.filter { $0.properties["toggle-state"] == .int32(1) }
        #expect(checked.count == 1 && Value.string(String(checked[0].label.prefix(5))) == locale, "\(languages.map(\.label))")
        #expect(languages.allSatisfy { $0.properties["toggle-type"] == .string("radio") })

        try await service.clickTrayMenu(1)
        #expect(try await NotulaTestSupport.states(until: "recording", in: &states) == ["recording"])
        // The host is told which items changed, and with what.
        let updated = try #require(await menuSignals.next())
        #expect(updated.member == "ItemsPropertiesUpdated")
        let recording = try await service.trayMenu()
        #expect(recording.children.map(\.label) == ["Pause", "Send", "Discard", "", "Language"])
        #expect(recording.children.map(\.enabled) == [true, true, true, true, true])

        // A group of events: the unknown id comes back, the known one is clicked.
        let group = try await service.callTray(
            Tray.menuPath, Tray.menuInterface, "EventGroup",
            [
                .array(
                    element: "(isvu)",
                    [
                        .structure([.int32(1), .string("clicked"), .variant(.int32(0)), .uint32(0)]),
                        .structure([.int32(77), .string("clicked"), .variant(.int32(0)), .uint32(0)]),
                    ])
            ])
        #expect(try group.argument(0, as: [Int32].self) == [77])
        #expect(try await NotulaTestSupport.states(until: "paused", in: &states) == ["paused"])
        #expect(try await service.trayMenu().children.first?.label == "Resume")

        try await service.clickTrayMenu(2)
        #expect(try await NotulaTestSupport.states(until: "idle", in: &states) == ["processing", "idle"])

        // Refusals are named errors a person can read.
        await #expect(throws: BusError.self) { try await service.clickTrayMenu(42) }
        do {
            try await service.clickTrayMenu(3)
            Issue.record("Discard while idle was accepted")
        } catch let error as BusError {
            #expect(error.name == .invalidState, "\(error.message)")
        }
        let aboutToShow = try await service.callTray(Tray.menuPath, Tray.menuInterface, "AboutToShow", [.int32(0)])
        #expect(try aboutToShow.argument(0, as: Bool.self) == false, "nothing changed since the host last read it")
        #expect(try await service.trayProperty("Version", of: Tray.menuPath, interface: Tray.menuInterface) == .uint32(3))
    }

    /// Nobody waits for a click's reply: a failure is told as a bus caller's is not, with `Failed` and a banner.
    @Test(.timeLimit(.minutes(1))) func recordFromTheMenuWithNoMicrophoneSaysSoWithFailedAndABanner() async throws {
        let bus = try PrivateBus()
        let watcher = try await StatusNotifierWatcherMock(on: bus)
        let notifications = try await NotificationDaemonMock(on: bus)
        let service = try await ServiceUnderTest.start(.named("no_such_microphone"), on: bus)
        _ = await watcher.nextRegistration()
        var events = try await service.recorderSignals().makeAsyncIterator()

        try await service.clickTrayMenu(1)
        let seen = await events.events { if case .failed = $0 { true } else { false } }
        #expect(seen.dropLast() == [.state("recording", reason: ""), .state("idle", reason: "")])
        guard case .failed(let name, let message)? = seen.last else {
            Issue.record("no Failed: \(seen)")
            return
        }
        #expect(name == "org.notula.Notula1.Error.DeviceUnavailable")
        #expect(message.contains("no_such_microphone"), "\(message)")
        var banner = await notifications.nextNotification()
        while banner?.summary == "Recording" { banner = await notifications.nextNotification() }
        #expect(banner?.summary == "No microphone" && banner?.icon == "dialog-error", "\(String(describing: banner))")
        #expect(banner?.body.contains("no_such_microphone") == true)

        // A caller that waits hears it in its reply.
        let error = await busError { try await service.recorder(.start) }
        #expect(error?.name.rawValue == "org.notula.Notula1.Error.DeviceUnavailable")
    }

    @Test func aLocaleTheCatalogBringsChangesTheLayoutAndItsItemPicksIt() async throws {
        let archive = FileManager.default.temporaryDirectory.appendingPathComponent("notula-not-a-model-\(UUID().uuidString).zip")
        try Data("not a model".utf8).write(to: archive)
        defer { try? FileManager.default.removeItem(at: archive) }
        let shop = try ModelShop([ModelShop.Offer(lang: "nl", name: "vosk-model-small-nl-0.22", archive: archive)])
        let (service, watcher) = try await serviceWithWatcher(environment: ["NOTULA_MODEL_CATALOG": shop.catalogAddress])
        defer { withExtendedLifetime(watcher) {} }
        var modelChanges = try await service.signals(of: NotulaBus.modelsPath, interface: NotulaBus.modelsInterface).makeAsyncIterator()
        var menuSignals = try await service.traySignals(of: Tray.menuPath, interface: Tray.menuInterface).makeAsyncIterator()
        // The catalog is fetched after the start: wait for the locale it brings, unless it came already.
        func supported() async throws -> [String] {
            try [String](dbusValue: try await service.modelsProperty(.supportedLocales))
        }
        while try await !supported().contains("nl-NL") {
            guard await modelChanges.next() != nil else { break }
        }

        // The host opens the menu: the layout it has is older than the catalog, so it is told to fetch it again.
        let aboutToShow = try await service.callTray(Tray.menuPath, Tray.menuInterface, "AboutToShow", [.int32(0)])
        #expect(try aboutToShow.argument(0, as: Bool.self))
        #expect(await menuSignals.next()?.member == "LayoutUpdated")
        let languages = try #require(try await service.trayMenu().child("Language")).children
        let dutch = try #require(languages.first { $0.label.hasPrefix("nl-NL") })
        #expect(dutch.label == "nl-NL (downloads its model)")
        #expect(dutch.properties["toggle-state"] == .int32(0))

        try await service.clickTrayMenu(dutch.id)
        #expect(try await service.property(.locale) == .string("nl-NL"))
        let checked = try #require(try await service.trayMenu().child("Language")).children.filter {
            $0.properties["toggle-state"] == .int32(1)
        }
        #expect(checked.map(\.label) == ["nl-NL (downloads its model)"])
    }

    @Test func theMenuAnswersEdgeNumbersAndHugeListsAndStaysUp() async throws {
        let service = try await ServiceUnderTest.start()
        func layout(_ parent: Int32, depth: Int32) async throws -> MenuEntry {
            let reply = try await service.callTray(
                Tray.menuPath, Tray.menuInterface, "GetLayout", [.int32(parent), .int32(depth), .array(element: "s", [])])
            return try MenuEntry(reply.body[1])
        }
        // Any negative depth is "all levels", as −1 is; a depth of 0 is the item alone.
        let whole = try await layout(0, depth: -1)
        for depth in [Int32.min, -2, Int32.max] {
            let entry = try await layout(0, depth: depth)
            #expect(entry.children.map(\.label) == whole.children.map(\.label), "depth \(depth)")
            #expect(entry.children.last?.children.count == whole.children.last?.children.count, "depth \(depth)")
        }
        #expect(try await layout(0, depth: 0).children.isEmpty)
        #expect(try await layout(1, depth: 1).children.isEmpty)
        for parent in [Int32.min, -1, Int32.max] {
            await #expect(throws: BusError(.invalidArgs, "The tray menu has no item \(parent)")) { _ = try await layout(parent, depth: -1) }
        }

        // A million copies of two ids, fifty thousand of one name: each item once, with that property alone.
        let repeated = Value.array(element: "i", (0..<1_000_000).map { .int32($0 % 2 == 0 ? 1 : 2) })
        let group = try await service.callTray(
            Tray.menuPath, Tray.menuInterface, "GetGroupProperties",
            [repeated, .array(element: "s", Array(repeating: .string("label"), count: 50_000))])
        let items = try group.argument(0, as: [DBusStruct<Int32, [String: Variant]>].self)
        #expect(items.map(\.fields.0) == [1, 2])
        #expect(items.allSatisfy { $0.fields.1.keys.sorted() == ["label"] })
        let aboutToShow = try await service.callTray(Tray.menuPath, Tray.menuInterface, "AboutToShowGroup", [repeated])
        #expect(try aboutToShow.argument(1, as: [Int32].self).isEmpty)
        #expect(try aboutToShow.argument(0, as: [Int32].self).count <= 2)

        // A hundred thousand events, each for another item (quadratic before), are refused unread; ten thousand
        // are refused by the menu; a host's handful is handled.
        func events(_ ids: some Sequence<Int32>, _ kind: String) -> Value {
            .array(element: "(isvu)", ids.map { .structure([.int32($0), .string(kind), .variant(.int32(0)), .uint32(.max)]) })
        }
        await #expect(throws: BusError(.invalidArgs, "EventGroup takes at most 100000 values in its arguments")) {
            _ = try await service.callTray(Tray.menuPath, Tray.menuInterface, "EventGroup", [events(Int32(1_000)..<101_000, "clicked")])
        }
        await #expect(throws: BusError(.invalidArgs, "EventGroup takes at most 64 events at once, got 10000")) {
            _ = try await service.callTray(Tray.menuPath, Tray.menuInterface, "EventGroup", [events(Int32(1_000)..<11_000, "clicked")])
        }
        let unknown = try await service.callTray(
            Tray.menuPath, Tray.menuInterface, "EventGroup", [events([1, 1, 500, 500, Int32.min, Int32.max], "hovered")])
        #expect(try unknown.argument(0, as: [Int32].self) == [500, Int32.min, Int32.max])
        #expect(try await service.property(.state) == .string("idle"))
        _ = try await service.callTray(Tray.menuPath, "org.freedesktop.DBus.Peer", "Ping")
    }
}
