// `org.freedesktop.DBus.ObjectManager`: one call lists every object below a path with its
// properties, and signals announce objects as they come and go, so a client keeps a mirror
// without introspecting each object.

extension InterfaceName {
    public static let objectManager: InterfaceName = "org.freedesktop.DBus.ObjectManager"
}

extension Bus {
    /// Exports an object manager at `root`: from now on every object exported below it is
    /// announced with `InterfacesAdded` (its properties' values included) and every one
    /// removed with `InterfacesRemoved`; `GetManagedObjects` lists them all.
    public func exportObjectManager(at root: ObjectPath) {
        managerRoots.insert(root)
        export(
            root,
            interfaces: [
                Interface(
                    .objectManager,
                    methods: [
                        Method("GetManagedObjects", outputs: [Argument("objects", "a{oa{sa{sv}}}")]) { _ throws(BusError) in
                            // Written object by object: a subtree may hold a hundred thousand.
                            .dictionary(key: "o", value: "a{sa{sv}}") { (add) throws(BusError) in
                                try self.assumeIsolated { $0.listing(below: root) }.forEach { (path, interfaces) throws(BusError) in
                                    try add(DictionaryEntry(key: .objectPath(path), value: Self.propertyValues(interfaces)))
                                }
                            }
                        }
                    ],
                    signals: [
                        SignalDeclaration(
                            "InterfacesAdded", [Argument("object_path", "o"), Argument("interfaces_and_properties", "a{sa{sv}}")]),
                        SignalDeclaration("InterfacesRemoved", [Argument("object_path", "o"), Argument("interfaces", "as")]),
                    ])
            ])
    }

    /// Announces the change from `old` to `new` interfaces at `path` to the manager above it, if any.
    func announceManagedChange(at path: ObjectPath, from old: [Interface], to new: [Interface]) {
        let removed = old.filter { gone in !new.contains { $0.name == gone.name } }
        let added = new.filter { fresh in !old.contains { $0.name == fresh.name } }
        if !removed.isEmpty { announceRemoved(at: path, removed.map(\.name)) }
        if !added.isEmpty { announceAdded(at: path, added) }
    }

    /// `InterfacesAdded` for the object at `path` from the manager above it, if any: what `export`
    /// sends, for objects a subtree serves.
    public func announceAdded(at path: ObjectPath, _ interfaces: [Interface]) {
        guard let root = managerRoot(above: path) else { return }
        try? emit(
            path: root, interface: .objectManager, member: "InterfacesAdded",
            arguments: [.objectPath(path), Self.propertyValues(interfaces)])
    }

    /// `InterfacesRemoved` for the object at `path` from the manager above it, if any: what
    /// `unexport` sends, for objects a subtree serves.
    public func announceRemoved(at path: ObjectPath, _ interfaces: [InterfaceName]) {
        guard let root = managerRoot(above: path) else { return }
        try? emit(
            path: root, interface: .objectManager, member: "InterfacesRemoved",
            arguments: [.objectPath(path), .array(element: "s", interfaces.map { .string($0.rawValue) })])
    }

    private func managerRoot(above path: ObjectPath) -> ObjectPath? {
        managerRoots.first { path.elements(below: $0) != nil }
    }

    /// `a{sa{sv}}`: each interface's name with its properties' current values.
    private static func propertyValues(_ interfaces: [Interface]) -> Value {
        .dictionary(
            key: "s", value: "a{sv}",
            interfaces.map { interface in
                DictionaryEntry(
                    key: .string(interface.name.rawValue),
                    value: .dictionary(
                        key: "s", value: "v",
                        interface.properties.map { DictionaryEntry(key: .string($0.name.rawValue), value: .variant($0.getter())) }))
            })
    }
}
