import DBus
import Recording

/// The tray item's menu, as `com.canonical.dbusmenu` describes one: a tree of items with numeric ids and
/// properties, each item that does something carrying its command. Made anew from the state and the
/// locales; what changed between two menus tells the host what to fetch again.
struct TrayMenu: Equatable, Sendable {
    /// What clicking an item does.
    enum Command: Equatable, Sendable {
        case recording(RecordingAction)
        case pickLocale(String)
    }

    struct Item: Equatable, Sendable {
        let id: Int32
        let properties: [String: Value]
        var children: [Item] = []
        var command: Command? = nil
    }

    /// What a host must fetch again to show `new` in place of an older menu.
    enum Change: Equatable {
        case none
        /// The same items, some with other properties (a label, `enabled`): `ItemsPropertiesUpdated`.
        case properties([Item])
        /// Items came or went: `LayoutUpdated`, and the host asks for the layout again.
        case layout
    }

    static let rootID: Int32 = 0
    /// Locale items are numbered from here, in the order listed.
    static let firstLocaleID: Int32 = 100

    let root: Item

    init(state: RecordingState, locales: LocaleOptions, texts: NotificationTexts) {
        let allowed = state.allowedActions
        func action(_ id: Int32, _ action: RecordingAction, _ label: String) -> Item {
            Item(
                id: id, properties: ["label": .string(label), "enabled": .boolean(allowed.contains(action))],
                command: .recording(action))
        }
        let toggleLabel =
            switch state {
            case .recording: texts.pause
            case .paused: texts.resume
            case .idle, .processing: texts.record
            }
        let localeItems = locales.listed.enumerated().map { index, locale in
            Item(
                id: Self.firstLocaleID + Int32(index),
                properties: [
                    "label": .string(locales.installed.contains(locale) ? locale : texts.notInstalled(locale)),
                    "enabled": .boolean(true), "toggle-type": .string("radio"),
                    "toggle-state": .int32(locale == locales.current ? 1 : 0),
                ],
                command: .pickLocale(locale))
        }
        root = Item(
            id: Self.rootID, properties: ["children-display": .string("submenu")],
            children: [
                action(1, .toggle, toggleLabel),
                action(2, .process, texts.send),
                action(3, .discard, texts.discard),
                Item(id: 4, properties: ["type": .string("separator")]),
                Item(
                    id: 5,
                    properties: ["label": .string(texts.language), "enabled": .boolean(true), "children-display": .string("submenu")],
                    children: localeItems),
            ])
    }

    /// The item numbered `id`, anywhere in the menu.
    func item(_ id: Int32) -> Item? { Self.find(id, in: root) }

    private static func find(_ id: Int32, in item: Item) -> Item? {
        if item.id == id { return item }
        for child in item.children { if let found = find(id, in: child) { return found } }
        return nil
    }

    func change(from old: TrayMenu) -> Change {
        guard self != old else { return .none }
        let mine = allItems
        let theirs = old.allItems
        guard mine.map(\.id) == theirs.map(\.id), mine.map({ $0.children.map(\.id) }) == theirs.map({ $0.children.map(\.id) }) else {
            return .layout
        }
        return .properties(zip(mine, theirs).filter { $0.properties != $1.properties }.map(\.0))
    }

    /// The ids of every item: what a request naming thousands of ids is checked against, once each.
    var itemIDs: Set<Int32> { Set(allItems.map(\.id)) }

    /// Every item, the root first, each before its children.
    var allItems: [Item] { Self.flattened(root) }

    private static func flattened(_ item: Item) -> [Item] { [item] + item.children.flatMap(flattened) }
}

extension TrayMenu.Item {
    /// The item as `GetLayout` returns it, `(ia{sv}av)`: only the properties named (all when none are), and
    /// children `depth` levels down (all when it is negative: the specification's −1, and any other a peer sends).
    func layout(properties names: Set<String>, depth: Int32) -> Value {
        let childDepth: Int32 = depth < 0 ? -1 : depth - 1
        let children = depth == 0 ? [] : children.map { Value.variant($0.layout(properties: names, depth: childDepth)) }
        return .structure([
            .int32(id), propertyDictionary(names), .array(element: "v", children),
        ])
    }

    /// The properties named (all when none are), as `a{sv}`.
    func propertyDictionary(_ names: Set<String>) -> Value {
        let chosen = properties.filter { names.isEmpty || names.contains($0.key) }.sorted { $0.key < $1.key }
        return .dictionary(key: "s", value: "v", chosen.map { DictionaryEntry(key: .string($0.key), value: .variant($0.value)) })
    }
}
