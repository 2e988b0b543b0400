/// The header of an archive's entry: what it is called and what it is.
struct EntryHeader {
    /// The name as the archive stores it: `project-1.0/docs/guide.txt`, `./conf/`, perhaps `../../etc/x`.
    let name: String
    let type: EntryType
}

/// What an entry is, with where it points for links.
enum EntryType: Equatable {
    case file
    case directory
    /// A symbolic link, with its target as stored.
    case symbolicLink(target: String)
    /// A hard link to an entry earlier in the archive, named as that entry is.
    case hardLink(target: String)
    /// A device, a named pipe, a socket or an unknown type, described for the user: "a named pipe (FIFO)".
    case unsupported(String)
}

/// What an entry the checks admitted is created as: a hard link's target is then relative to the folder.
enum AdmittedType: Equatable {
    case file
    case directory
    case symbolicLink(target: String)
    case hardLink(target: String)
}
