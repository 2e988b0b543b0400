import Glibc

/// The room a download or an unpack may take on the disk of its file or folder: all that is free but
/// `keptFree`, which stays for what matters more (the user's own files on the same disk).
struct DiskRoom {
    /// A file or folder on the disk measured.
    let path: String
    let keptFree: Int64

    /// How often a long write looks at the disk again, as other writers may have taken its room meanwhile.
    static let checkInterval: Int64 = 1 << 20

    /// Whether writing from `written` bytes to `writing` crosses a `checkInterval`: the room is then looked at again.
    static func isCheckDue(from written: Int64, to writing: Int64) -> Bool {
        written / checkInterval != writing / checkInterval
    }

    /// The disk's free bytes when writing `needed` more would leave less than `keptFree`; `nil` when there is
    /// room, or when the free space cannot be read (the writes then tell a full disk).
    func freeBytesWhenShort(needing needed: Int64) -> Int64? {
        guard let free = freeBytes, free < keptFree || free - keptFree < needed else { return nil }
        return free
    }

    /// The bytes an unprivileged user may still write on the disk; `nil` when `statvfs` fails.
    private var freeBytes: Int64? {
        var space = statvfs()
        guard statvfs(path, &space) == 0 else { return nil }
        let (bytes, overflow) = UInt64(space.f_bavail).multipliedReportingOverflow(by: UInt64(space.f_frsize))
        return overflow || bytes > UInt64(Int64.max) ? .max : Int64(bytes)
    }
}
