import DBus

/// `com.canonical.dbusmenu` (version 3): the tray item's menu, read by the host and clicked through it.
enum DBusMenuInterface {
    static let name: InterfaceName = "com.canonical.dbusmenu"
    /// The most events one `EventGroup` may carry.
    static let maximumEventsPerGroup = 64

    static func make(_ item: TrayItem) -> Interface {
        @Sendable func menu() -> TrayMenu { item.assumeIsolated { $0.menu } }
        @Sendable func click(_ id: Int32) throws(BusError) {
            try item.assumeIsolated { item in Result { () throws(BusError) in try item.clicked(id) } }.get()
        }
        @Sendable func existing(_ id: Int32) throws(BusError) -> TrayMenu.Item {
            guard let found = menu().item(id) else { throw BusError.invalidArgs("The tray menu has no item \(id)") }
            return found
        }
        return Interface(
            name,
            methods: [
                Method(
                    "GetLayout",
                    inputs: [Argument("parent_id", "i"), Argument("recursion_depth", "i"), Argument("property_names", "as")],
                    outputs: [Argument("revision", "u"), Argument("layout", "(ia{sv}av)")]
                ) { call throws(BusError) in
                    let parent = try existing(try call.argument(0, as: Int32.self))
                    let names = Set(try call.argument(2, as: [String].self))
                    let layout = parent.layout(properties: names, depth: try call.argument(1, as: Int32.self))
                    return .now([.uint32(item.assumeIsolated { $0.revision }), layout])
                },
                Method(
                    "GetGroupProperties", inputs: [Argument("ids", "ai"), Argument("property_names", "as")],
                    outputs: [Argument("properties", "a(ia{sv})")]
                ) { call throws(BusError) in
                    let ids = firstOfEach(try call.argument(0, as: [Int32].self))
                    let names = Set(try call.argument(1, as: [String].self))
                    let menu = menu()
                    // As libdbusmenu does: no ids asks for every item; an unknown id is left out. Each item
                    // comes once however often it is named, so the reply is never larger than the menu.
                    let items = ids.isEmpty ? menu.allItems : ids.compactMap(menu.item)
                    return .now([
                        .array(
                            element: "(ia{sv})", items.map { .structure([.int32($0.id), $0.propertyDictionary(names)]) })
                    ])
                },
                Method("GetProperty", inputs: [Argument("id", "i"), Argument("name", "s")], outputs: [Argument("value", "v")]) {
                    call throws(BusError) in
                    let found = try existing(try call.argument(0, as: Int32.self))
                    let property: String = try call.argument(1)
                    guard let value = found.properties[property] else {
                        throw BusError.invalidArgs("Tray menu item \(found.id) has no property \(property)")
                    }
                    return .now([.variant(value)])
                },
                Method(
                    "Event",
                    inputs: [Argument("id", "i"), Argument("event_id", "s"), Argument("data", "v"), Argument("timestamp", "u")]
                ) { call throws(BusError) in
                    let id = try call.argument(0, as: Int32.self)
                    // Hosts also report "opened", "closed" and "hovered": only a click does something.
                    if try call.argument(1, as: String.self) == "clicked" {
                        try click(id)
                    } else {
                        _ = try existing(id)
                    }
                    return .now([])
                },
                Method("EventGroup", inputs: [Argument("events", "a(isvu)")], outputs: [Argument("id_errors", "ai")]) {
                    call throws(BusError) in
                    let events = try call.argument(0, as: [DBusStruct<Int32, String, Variant, UInt32>].self)
                    // A host sends the few events of one gesture; thousands of clicks in one message would
                    // each run a transition.
                    guard events.count <= maximumEventsPerGroup else {
                        throw BusError.invalidArgs(
                            "EventGroup takes at most \(maximumEventsPerGroup) events at once, got \(events.count)")
                    }
                    let known = menu().itemIDs
                    let unknown = firstOfEach(events.map(\.fields.0).filter { !known.contains($0) })
                    guard unknown.count < Set(events.map(\.fields.0)).count || events.isEmpty else {
                        throw BusError.invalidArgs(
                            "The tray menu has none of the items \(unknown.map(String.init).joined(separator: ", "))")
                    }
                    for event in events where event.fields.1 == "clicked" && known.contains(event.fields.0) {
                        try click(event.fields.0)
                    }
                    return .now([.array(element: "i", unknown.map(Value.int32))])
                },
                Method("AboutToShow", inputs: [Argument("id", "i")], outputs: [Argument("need_update", "b")]) {
                    call throws(BusError) in
                    _ = try existing(try call.argument(0, as: Int32.self))
                    return .now([.boolean(item.assumeIsolated { $0.refreshMenu() })])
                },
                Method(
                    "AboutToShowGroup", inputs: [Argument("ids", "ai")],
                    outputs: [Argument("updates_needed", "ai"), Argument("id_errors", "ai")]
                ) { call throws(BusError) in
                    let ids = firstOfEach(try call.argument(0, as: [Int32].self))
                    let changed = item.assumeIsolated { $0.refreshMenu() }
                    let menuIDs = menu().itemIDs
                    let known = ids.filter { menuIDs.contains($0) }
                    let unknown = ids.filter { !menuIDs.contains($0) }
                    return .now([
                        .array(element: "i", (changed ? known : []).map(Value.int32)), .array(element: "i", unknown.map(Value.int32)),
                    ])
                },
            ],
            properties: [
                Property("Version", "u", emitsChanged: .const) { .uint32(3) },
                Property("TextDirection", "s", emitsChanged: .const) { .string("ltr") },
                Property("Status", "s", emitsChanged: .const) { .string("normal") },
                Property("IconThemePath", "as", emitsChanged: .const) { .array(element: "s", []) },
            ],
            signals: [
                SignalDeclaration(
                    "ItemsPropertiesUpdated", [Argument("updated_props", "a(ia{sv})"), Argument("removed_props", "a(ias)")]),
                SignalDeclaration("LayoutUpdated", [Argument("revision", "u"), Argument("parent", "i")]),
                SignalDeclaration("ItemActivationRequested", [Argument("id", "i"), Argument("timestamp", "u")]),
            ])
    }
}

/// `ids` without repeats, in the order first named: a peer's list of a million copies of one id costs one entry.
private func firstOfEach(_ ids: [Int32]) -> [Int32] {
    var seen = Set<Int32>()
    return ids.filter { seen.insert($0).inserted }
}
