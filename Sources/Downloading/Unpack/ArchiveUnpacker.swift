import FoundationEssentials
import Glibc

/// Unpacks a downloaded archive into a folder of its own, never writing outside it.
public enum ArchiveUnpacker {
    /// Unpacks every entry of a zip or tar archive (plain, or compressed with gzip, bzip2 or xz) into `folder`.
    ///
    /// Folders are created 0700 and files 0600; owners, ACLs, extended attributes and setuid bits are never
    /// restored. Every entry is checked before anything of it is written (see `UnpackedTree`): an absolute name,
    /// a `..`, a write through a symbolic link, a link pointing outside the folder, a hard link to anything but
    /// a file unpacked before, a device, a named pipe or a socket fails the whole unpack. libarchive's own guards
    /// are on as well. On any failure, everything written is removed, `folder` included, before throwing.
    /// - Parameters:
    ///   - archive: The archive's path.
    ///   - folder: Where to unpack; it must not exist, and its parent must.
    ///   - maximumBytes: The most the entries may add up to, counted as they are written, as headers can lie.
    ///   - keptFree: The bytes the unpack leaves free on the disk of `folder`, checked every MiB.
    ///   - isCancelled: Asked before every entry and every block of data, from another thread.
    /// - Returns: The names of the top-level entries, in the archive's order: many archives have one folder.
    /// - Throws: `.unreadable` when the archive cannot be read, is not a zip or tar archive, or is truncated or
    ///   corrupt; `.unsafeEntry`; `.tooLarge`; `.noRoom`; `.diskFull`; `.fileError` when writing fails otherwise;
    ///   `.folderExists`; `.cancelled`.
    public static func unpack(
        _ archive: String, into folder: String, maximumBytes: Int64, keepingFree keptFree: Int64 = 0,
        isCancelled: @Sendable () -> Bool = { false }
    ) throws(UnpackError) -> [String] {
        let source = open(archive, O_RDONLY | O_CLOEXEC)
        guard source >= 0 else { throw .unreadable(archive: archive, reason: String(cString: strerror(errno))) }
        defer { close(source) }
        guard mkdir(folder, 0o700) == 0 else {
            let error = errno
            throw error == EEXIST ? .folderExists(folder) : .fileError(path: folder, reason: String(cString: strerror(error)))
        }
        do throws(UnpackError) {
            let target = open(folder, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
            guard target >= 0 else { throw .fileError(path: folder, reason: String(cString: strerror(errno))) }
            defer { close(target) }
            return try ExtractionThread.run(inFolder: target, path: folder) { () throws(UnpackError) in
                var extraction = try ArchiveExtraction(
                    source: source, archive: archive, folder: folder, maximumBytes: maximumBytes,
                    room: DiskRoom(path: folder, keptFree: keptFree))
                return try extraction.run(isCancelled: isCancelled)
            }
        } catch {
            // The writer is freed by now, so nothing is still open in the folder.
            try? FileManager.default.removeItem(atPath: folder)
            throw error
        }
    }
}
