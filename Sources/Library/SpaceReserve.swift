import Glibc
import Recording

/// A file of zeros beside the library, given up the moment a write finds the disk full, so that the
/// library can still record what became of a memo (sent, transcribed, failed) on a disk a recording
/// filled; made again once the disk has room for it twice over.
///
/// Its size is an eighth of the file system, at most 8 MiB: room for the rows and the word timings of
/// hours of transcripts, and a small part of a small disk.
struct SpaceReserve {
    let path: String

    /// The reserve's size on the file system of `folder`; 0 when that cannot be read.
    static func size(on folder: String) -> UInt64 {
        var space = statvfs()
        guard statvfs(folder, &space) == 0 else { return 0 }
        return size(of: space)
    }

    private static func size(of space: statvfs) -> UInt64 {
        min(8 << 20, UInt64(space.f_blocks) * UInt64(space.f_frsize) / 8)
    }

    var folder: String { String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)]) }

    /// Makes the reserve unless it is there, when the disk has room for it twice over; a reserve that
    /// cannot be made now is made after a later write.
    func ensure() {
        guard access(path, F_OK) != 0 else { return }
        var space = statvfs()
        guard statvfs(folder, &space) == 0 else { return }
        let size = Self.size(of: space)
        guard size > 0, UInt64(space.f_bavail) * UInt64(space.f_frsize) >= 2 * size else { return }
        let staging = path + ".new"
        unlink(staging)  // what a crash left of an earlier attempt
        guard let descriptor = try? PrivateFiles.create(staging) else { return }
        // Real blocks, not a hole: a sparse file would give nothing back.
        let made = posix_fallocate(descriptor, 0, off_t(size)) == 0 && fsync(descriptor) == 0
        close(descriptor)
        if !made || rename(staging, path) != 0 { unlink(staging) }
    }

    /// Gives the reserve's blocks back to the file system. - Returns: whether there was one.
    func release() -> Bool {
        unlink(path) == 0
    }
}
