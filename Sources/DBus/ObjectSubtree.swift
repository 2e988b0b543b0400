// Objects made on demand: a folder of the tree whose children live elsewhere (a database), so
// that a hundred thousand of them cost nothing until a call names one.

/// The objects directly below one path, looked up when a call arrives instead of being exported
/// one by one.
public struct ObjectSubtree: Sendable {
    /// The interfaces of the child named `name`, nil when there is no such child.
    public let interfaces: @Sendable (_ name: String) -> [Interface]?
    /// Every child with its interfaces, for introspection and the object manager, which list
    /// them all: read at once, rather than child by child.
    public let objects: @Sendable () -> [(name: String, interfaces: [Interface])]

    public init(
        interfaces: @escaping @Sendable (_ name: String) -> [Interface]?,
        objects: @escaping @Sendable () -> [(name: String, interfaces: [Interface])]
    ) {
        self.interfaces = interfaces
        self.objects = objects
    }
}

extension Bus {
    /// Serves the children of `path` from `subtree`; an object exported at a child's path with
    /// `export` takes precedence.
    public func exportSubtree(_ path: ObjectPath, _ subtree: ObjectSubtree) {
        subtrees[path] = subtree
    }

    /// The interfaces of the object at `path`, whether exported or served by a subtree.
    func interfaces(at path: ObjectPath) -> [Interface]? {
        if let exported = objects[path] { return exported }
        guard let (parent, name) = path.parentAndName, let subtree = subtrees[parent] else { return nil }
        return subtree.interfaces(name)
    }

    /// Every object at or below `root`, exported or served, with its interfaces.
    func objects(below root: ObjectPath) -> [(path: ObjectPath, interfaces: [Interface])] {
        var found = objects.filter { $0.key.elements(below: root) != nil }.map { (path: $0.key, interfaces: $0.value) }
        for (parent, subtree) in subtrees where parent == root || parent.elements(below: root) != nil {
            for child in subtree.objects() {
                guard let path = parent.appending(child.name), objects[path] == nil else { continue }
                found.append((path, child.interfaces))
            }
        }
        return found.sorted { $0.path < $1.path }
    }
}

extension ObjectPath {
    /// The path one element up and the last element's name; nil for the root.
    var parentAndName: (parent: ObjectPath, name: String)? {
        guard rawValue != "/", let slash = rawValue.lastIndex(of: "/") else { return nil }
        let parent = slash == rawValue.startIndex ? "/" : String(rawValue[..<slash])
        return (ObjectPath(unchecked: parent), String(rawValue[rawValue.index(after: slash)...]))
    }
}
