// Objects made on demand: a folder of the tree whose children live elsewhere (a database), so
// that a hundred thousand of them cost nothing until a call names one.

/// The objects directly below one path, looked up when a call arrives instead of being exported
/// one by one.
public struct ObjectSubtree: Sendable {
    /// The interfaces of the child named `name`, nil when there is no such child.
    public let interfaces: @Sendable (_ name: String) -> [Interface]?
    /// Hands every child with its interfaces to `body` in turn, until `body` returns false: for
    /// introspection and the object manager, which list them all, one at a time.
    public let forEach: @Sendable (_ body: (_ name: String, _ interfaces: [Interface]) -> Bool) -> Void

    public init(
        interfaces: @escaping @Sendable (_ name: String) -> [Interface]?,
        forEach: @escaping @Sendable (_ body: (_ name: String, _ interfaces: [Interface]) -> Bool) -> Void
    ) {
        self.interfaces = interfaces
        self.forEach = forEach
    }

    /// Every child's name.
    var names: [String] {
        var names: [String] = []
        forEach { name, _ in
            names.append(name)
            return true
        }
        return names
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

    /// The objects below `root` now: those exported one by one, and the subtrees serving the rest.
    func listing(below root: ObjectPath) -> ObjectListing {
        ObjectListing(
            exported: objects.filter { $0.key.elements(below: root) != nil }.sorted { $0.key < $1.key }.map { ($0.key, $0.value) },
            subtrees: subtrees.filter { $0.key == root || $0.key.elements(below: root) != nil }.map { ($0.key, $0.value) })
    }
}

/// The objects below an object manager's root at one moment, listed one at a time.
struct ObjectListing: Sendable {
    let exported: [(path: ObjectPath, interfaces: [Interface])]
    let subtrees: [(path: ObjectPath, subtree: ObjectSubtree)]

    /// Hands every object, exported or served, with its interfaces to `body`; stops at the first
    /// error `body` throws, and throws it.
    func forEach(_ body: (ObjectPath, [Interface]) throws(BusError) -> Void) throws(BusError) {
        for (path, interfaces) in exported { try body(path, interfaces) }
        let exportedPaths = Set(exported.map(\.path))
        for (parent, subtree) in subtrees {
            var failure: BusError?
            subtree.forEach { name, interfaces in
                guard let path = parent.appending(name), !exportedPaths.contains(path) else { return true }
                do throws(BusError) { try body(path, interfaces) } catch {
                    failure = error
                    return false
                }
                return true
            }
            if let failure { throw failure }
        }
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
