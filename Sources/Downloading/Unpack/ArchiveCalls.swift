import CArchive
import Glibc

// Every libarchive call of the module is in this file: one place to audit them.

/// A libarchive call that failed: the error number it set (an errno, or `ARCHIVE_ERRNO_MISC` for its own
/// checks) and its message.
struct ArchiveFailure: Error {
    let code: Int32
    let message: String

    init(code: Int32, message: String) {
        self.code = code
        self.message = message
    }

    /// What libarchive last said about `archive`.
    /// The corresponding C functions are `archive_errno` and `archive_error_string`.
    fileprivate init(of archive: OpaquePointer) {
        code = archive_errno(archive)
        message = archive_error_string(archive).map { String(cString: $0) } ?? "libarchive gave no reason"
    }
}

/// A block of an entry's data, valid until the next read from its archive.
struct DataBlock {
    let bytes: UnsafeRawBufferPointer
    /// Where the block goes in the file: blocks of sparse files leave holes between them.
    let offset: Int64
}

/// A zip, or a tar either plain or compressed with gzip, bzip2 or xz, read entry by entry.
///
/// Not thread-safe, as libarchive's archives are not: one owner reads it.
/// Names are read as UTF-8 when the thread's locale is UTF-8 (see `ExtractionThread`); in the C locale,
/// libarchive cannot convert any name that is not ASCII.
final class ArchiveReader {
    private let handle: OpaquePointer

    /// Starts reading the archive open as `descriptor`; the descriptor stays the caller's to close.
    /// - Throws: What libarchive said when it cannot start reading the file.
    /// The corresponding C functions are `archive_read_new`, `archive_read_support_format_zip`,
    /// `archive_read_support_format_tar`, `archive_read_support_filter_gzip`, `archive_read_support_filter_bzip2`,
    /// `archive_read_support_filter_xz` and `archive_read_open_fd`.
    init(descriptor: Int32) throws(ArchiveFailure) {
        guard let handle = archive_read_new() else {
            throw ArchiveFailure(code: ENOMEM, message: "libarchive could not allocate a reader")
        }
        // A filter returns a mere warning when it will run an external program rather than a library, which works too.
        _ = archive_read_support_format_zip(handle)
        _ = archive_read_support_format_tar(handle)
        _ = archive_read_support_filter_gzip(handle)
        _ = archive_read_support_filter_bzip2(handle)
        _ = archive_read_support_filter_xz(handle)
        guard archive_read_open_fd(handle, descriptor, 64 * 1024) == ARCHIVE_OK else {
            let failure = ArchiveFailure(of: handle)
            archive_read_free(handle)
            throw failure
        }
        self.handle = handle
    }

    /// The corresponding C function is `archive_read_free`.
    deinit {
        archive_read_free(handle)
    }

    /// The next entry's header, copied; nil after the last entry. Data left unread of the previous entry is skipped.
    /// - Throws: What libarchive said when the archive is truncated or corrupt, or a name cannot be read.
    /// The corresponding C functions are `archive_read_next_header`, `archive_entry_pathname_utf8`,
    /// `archive_entry_hardlink_utf8`, `archive_entry_filetype` and `archive_entry_symlink_utf8`.
    func nextHeader() throws(ArchiveFailure) -> EntryHeader? {
        var entry: OpaquePointer?
        let status = archive_read_next_header(handle, &entry)
        if status == ARCHIVE_EOF { return nil }
        // A warning comes with a usable header; a name that cannot be converted is caught just below.
        guard status >= ARCHIVE_WARN, let entry, let name = archive_entry_pathname_utf8(entry) else {
            throw ArchiveFailure(of: handle)
        }
        return EntryHeader(name: String(cString: name), type: Self.type(of: entry))
    }

    /// The next block of the current entry's data; nil after its last.
    /// - Throws: What libarchive said when the data is truncated or corrupt. A zip's bad CRC is only a
    ///   warning to libarchive, so warnings fail too.
    /// The corresponding C function is `archive_read_data_block`.
    func nextBlock() throws(ArchiveFailure) -> DataBlock? {
        var bytes: UnsafeRawPointer?
        var count = 0
        var offset: Int64 = 0
        let status = archive_read_data_block(handle, &bytes, &count, &offset)
        if status == ARCHIVE_EOF { return nil }
        guard status == ARCHIVE_OK else { throw ArchiveFailure(of: handle) }
        return DataBlock(bytes: UnsafeRawBufferPointer(start: bytes, count: count), offset: offset)
    }

    /// A hard link's type is the file's it shares (or none, in tar), so its target is looked at first.
    private static func type(of entry: OpaquePointer) -> EntryType {
        if let target = archive_entry_hardlink_utf8(entry) {
            return .hardLink(target: String(cString: target))
        }
        switch archive_entry_filetype(entry) {
        case carchive_regular_file():
            return .file
        case carchive_directory():
            return .directory
        case carchive_symbolic_link():
            guard let target = archive_entry_symlink_utf8(entry) else { return .unsupported("a symbolic link without a target") }
            return .symbolicLink(target: String(cString: target))
        case carchive_named_pipe():
            return .unsupported("a named pipe (FIFO)")
        case carchive_character_device():
            return .unsupported("a character device")
        case carchive_block_device():
            return .unsupported("a block device")
        case carchive_socket():
            return .unsupported("a socket")
        default:
            return .unsupported("an entry of unknown type")
        }
    }
}

@available(*, unavailable)
extension ArchiveReader: Sendable {}

/// Writes entries to disk, relative to the working directory.
///
/// Besides the unpacker's own checks, libarchive's guards refuse any name with `..`, any absolute name and
/// anything written through a symbolic link. Owners, permissions beyond those given, times, ACLs, extended
/// attributes and file flags are never restored, and no folder is made that was not asked for.
/// Not thread-safe, as libarchive's archives are not: one owner writes.
final class DiskWriter {
    private let handle: OpaquePointer

    /// A writer with libarchive's guards on.
    ///
    /// libarchive briefly sets the umask to 0 to read it here: the process's, unless the thread has its own.
    /// - Throws: When libarchive cannot allocate the writer.
    /// The corresponding C functions are `archive_write_disk_new` and `archive_write_disk_set_options`.
    init() throws(ArchiveFailure) {
        guard let handle = archive_write_disk_new() else {
            throw ArchiveFailure(code: ENOMEM, message: "libarchive could not allocate a writer")
        }
        let options =
            ARCHIVE_EXTRACT_SECURE_NODOTDOT | ARCHIVE_EXTRACT_SECURE_SYMLINKS | ARCHIVE_EXTRACT_SECURE_NOABSOLUTEPATHS
            | ARCHIVE_EXTRACT_NO_AUTODIR
        guard archive_write_disk_set_options(handle, options) == ARCHIVE_OK else {
            let failure = ArchiveFailure(of: handle)
            archive_write_free(handle)
            throw failure
        }
        self.handle = handle
    }

    /// The corresponding C function is `archive_write_free`, which also closes the writer if `close()` was not called.
    deinit {
        archive_write_free(handle)
    }

    /// Creates `path`: an empty file to write blocks into, a folder, or a link.
    ///
    /// The entry is built afresh rather than passed on from the reader, so that nothing but the name, the type,
    /// `permissions` and a link's target can reach the disk. Something at `path` already (not a non-empty
    /// folder) is replaced.
    /// - Parameters:
    ///   - path: Where, relative to the working directory, without `..`.
    ///   - type: What to create.
    ///   - permissions: The mode's permission bits, which the umask may narrow; ignored for links.
    /// - Throws: What libarchive or the system said.
    /// The corresponding C functions are `archive_entry_new`, `archive_entry_set_pathname_utf8`,
    /// `archive_entry_set_filetype`, `archive_entry_set_perm`, `archive_entry_set_symlink_utf8`,
    /// `archive_entry_set_hardlink_utf8`, `archive_write_header` and `archive_entry_free`.
    func create(_ path: String, as type: AdmittedType, permissions: mode_t) throws(ArchiveFailure) {
        guard let entry = archive_entry_new() else {
            throw ArchiveFailure(code: ENOMEM, message: "libarchive could not allocate an entry")
        }
        defer { archive_entry_free(entry) }
        archive_entry_set_pathname_utf8(entry, path)
        archive_entry_set_perm(entry, permissions)
        switch type {
        case .file:
            archive_entry_set_filetype(entry, UInt32(carchive_regular_file()))
        case .directory:
            archive_entry_set_filetype(entry, UInt32(carchive_directory()))
        case .symbolicLink(let target):
            archive_entry_set_filetype(entry, UInt32(carchive_symbolic_link()))
            archive_entry_set_symlink_utf8(entry, target)
        case .hardLink(let target):
            archive_entry_set_filetype(entry, UInt32(carchive_regular_file()))
            archive_entry_set_hardlink_utf8(entry, target)
        }
        guard archive_write_header(handle, entry) >= ARCHIVE_WARN else { throw ArchiveFailure(of: handle) }
    }

    /// Writes a block into the file created last.
    /// - Throws: What libarchive or the system said: `ENOSPC` when the disk is full. libarchive reports a
    ///   failed `write` as a mere warning, so warnings fail too.
    /// The corresponding C function is `archive_write_data_block`.
    func write(_ block: DataBlock) throws(ArchiveFailure) {
        guard archive_write_data_block(handle, block.bytes.baseAddress, block.bytes.count, block.offset) == ARCHIVE_OK else {
            throw ArchiveFailure(of: handle)
        }
    }

    /// Finishes what was created last: closes a file.
    /// - Throws: What libarchive or the system said.
    /// The corresponding C function is `archive_write_finish_entry`.
    func finishEntry() throws(ArchiveFailure) {
        guard archive_write_finish_entry(handle) >= ARCHIVE_WARN else { throw ArchiveFailure(of: handle) }
    }

    /// Finishes the last entry and applies what libarchive deferred to the end.
    /// - Throws: What libarchive or the system said.
    /// The corresponding C function is `archive_write_close`.
    func close() throws(ArchiveFailure) {
        guard archive_write_close(handle) >= ARCHIVE_WARN else { throw ArchiveFailure(of: handle) }
    }
}

@available(*, unavailable)
extension DiskWriter: Sendable {}
