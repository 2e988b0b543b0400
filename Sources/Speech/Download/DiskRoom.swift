import Glibc

/// The room a download may take on the disk of its file: all that is free but `keptFree`, which stays for
/// what matters more (the recordings on the same disk).
struct DiskRoom {
    /// The file whose disk is measured.
    let path: String
    let keptFree: Int64

    /// - Throws: `.noRoom` when writing `needed` more bytes would leave less than `keptFree` free; nothing when
    ///   the disk's free space cannot be read (the writes then tell a full disk).
    func check(needing needed: Int64) throws(DownloadError) {
        guard let free = freeBytes else { return }
        guard free < keptFree || free - keptFree < needed else { return }
        throw .noRoom(path: path, needed: needed, free: free, keptFree: keptFree)
    }

    /// The bytes an unprivileged user may still write on the disk; `nil` when `statvfs` fails.
    private var freeBytes: Int64? {
        var space = statvfs()
        guard statvfs(path, &space) == 0 else { return nil }
        let (bytes, overflow) = UInt64(space.f_bavail).multipliedReportingOverflow(by: UInt64(space.f_frsize))
        return overflow || bytes > UInt64(Int64.max) ? .max : Int64(bytes)
    }
}
