/// What an unpack has written so far, and the rules that keep the next entry inside the folder.
///
/// Every entry is checked here before anything of it is written. Paths are relative to the folder and
/// normalized: no empty, `.` or `..` components. The rules:
/// - a name must not be absolute nor have a `..` component;
/// - nothing is written through a symbolic link the archive made (a link replaced as a whole is fine);
/// - a symbolic link's target must be relative, and its `..` components must all come first and climb no
///   higher than the folder. A `..` after a name would climb out of whatever that name is, which may be
///   another link: `a/..` leads outside when `a` links to `.`, though it reads as staying in;
/// - a hard link must point to a file the archive wrote before;
/// - devices, named pipes and sockets are refused.
struct UnpackedTree {
    /// An entry to create once admitted: the folders it needs first, then itself.
    struct Admission {
        /// Parent folders that do not exist yet, outermost first: zips often leave them out.
        let missingFolders: [String]
        let path: String
        let type: AdmittedType
    }

    private enum Written {
        case file, folder, symbolicLink
    }

    private var written: [String: Written] = [:]
    /// The first component of every entry, each once, in the archive's order.
    private(set) var topLevelNames: [String] = []
    private var topLevelNamesSeen: Set<String> = []

    /// Checks an entry and, when it is admitted, counts it as written.
    /// - Parameter header: The entry as the archive describes it.
    /// - Returns: What to create; nil for the folder itself (`./`), which exists already.
    /// - Throws: `.unsafeEntry` naming the entry and the rule it breaks.
    mutating func admit(_ header: EntryHeader) throws(UnpackError) -> Admission? {
        func refusal(_ reason: String) -> UnpackError { .unsafeEntry(name: header.name, reason: reason) }

        guard let components = Self.components(of: header.name) else {
            throw refusal("The archive tries to write outside its folder")
        }
        guard let topLevelName = components.first else {
            guard header.type == .directory else { throw refusal("The archive holds an entry without a name") }
            return nil
        }
        var missingFolders: [String] = []
        for end in components.indices.dropFirst() {
            let folder = components[..<end].joined(separator: "/")
            switch written[folder] {
            case .symbolicLink:
                throw refusal("The archive tries to write through the link \(folder)")
            case nil:
                missingFolders.append(folder)
            case .file, .folder:
                break  // A file in the way fails when written, as it would anywhere.
            }
        }
        let type = try admittedType(of: header.type, depth: components.count - 1, refusal: refusal)

        let path = components.joined(separator: "/")
        for folder in missingFolders {
            written[folder] = .folder
        }
        switch type {
        case .file, .hardLink: written[path] = .file
        case .directory: written[path] = .folder
        case .symbolicLink: written[path] = .symbolicLink
        }
        if topLevelNamesSeen.insert(topLevelName).inserted {
            topLevelNames.append(topLevelName)
        }
        return Admission(missingFolders: missingFolders, path: path, type: type)
    }

    /// Refuses what is not a file, folder or link, and checks a link's target; a hard link's is returned
    /// normalized, as the writer resolves it from the folder.
    /// - Parameter depth: How many folders deep inside the folder the entry is.
    private func admittedType(of type: EntryType, depth: Int, refusal: (String) -> UnpackError) throws(UnpackError)
        -> AdmittedType
    {
        switch type {
        case .file:
            return .file
        case .directory:
            return .directory
        case .symbolicLink(let target):
            try checkSymbolicLink(to: target, depth: depth, refusal: refusal)
            return .symbolicLink(target: target)
        case .hardLink(let target):
            guard let components = Self.components(of: target) else {
                throw refusal("The archive holds a hard link to \(target), outside its folder")
            }
            let path = components.joined(separator: "/")
            guard written[path] == .file else {
                throw refusal("The archive holds a hard link to \(target), which is not a file it unpacked before")
            }
            return .hardLink(target: path)
        case .unsupported(let description):
            throw refusal("The archive holds \(description), not a file, folder or link")
        }
    }

    private func checkSymbolicLink(to target: String, depth: Int, refusal: (String) -> UnpackError) throws(UnpackError) {
        guard !target.hasPrefix("/") else {
            throw refusal("The archive holds a link to \(target), outside its folder")
        }
        var depth = depth
        var climbing = true
        for component in target.split(separator: "/") where component != "." {
            guard component == ".." else {
                climbing = false
                continue
            }
            guard climbing else {
                throw refusal("The archive holds a link to \(target), whose .. after a name could lead outside its folder")
            }
            guard depth > 0 else {
                throw refusal("The archive holds a link to \(target), outside its folder")
            }
            depth -= 1
        }
    }

    /// The components of a name relative to the folder, empty and `.` ones left out; nil when the name is
    /// absolute or has a `..`.
    private static func components(of name: String) -> [String]? {
        guard !name.hasPrefix("/") else { return nil }
        let components = name.split(separator: "/").filter { $0 != "." }.map(String.init)
        return components.contains("..") ? nil : components
    }
}
