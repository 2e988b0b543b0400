import CArchive
import Glibc

// Every libarchive call of the module is in this file: one place to audit them.

/// The libarchive functions the module calls, resolved once with `dlsym` from a libarchive opened at the first unpack.
///
/// Loaded, not linked: libarchive brings libxml2, and with it ICU, and a dozen compression libraries, some 1.6 MB
/// of memory that a service which installs no model should not hold.
// Unchecked: every field is a function address set once in `init` and only read after.
private struct ArchiveFunctions: @unchecked Sendable {
    typealias Archive = OpaquePointer
    typealias Entry = OpaquePointer

    let errorNumber: @convention(c) (Archive) -> Int32
    let errorString: @convention(c) (Archive) -> UnsafePointer<CChar>?
    let readNew: @convention(c) () -> Archive?
    let readSupportFormatZip: @convention(c) (Archive) -> Int32
    let readSupportFormatTar: @convention(c) (Archive) -> Int32
    let readSupportFilterGzip: @convention(c) (Archive) -> Int32
    let readSupportFilterBzip2: @convention(c) (Archive) -> Int32
    let readSupportFilterXz: @convention(c) (Archive) -> Int32
    let readOpenFd: @convention(c) (Archive, Int32, Int) -> Int32
    let readFree: @convention(c) (Archive) -> Int32
    let readNextHeader: @convention(c) (Archive, UnsafeMutablePointer<Entry?>) -> Int32
    let readDataBlock:
        @convention(c) (Archive, UnsafeMutablePointer<UnsafeRawPointer?>, UnsafeMutablePointer<Int>, UnsafeMutablePointer<Int64>) ->
            Int32
    let entryPathname: @convention(c) (Entry) -> UnsafePointer<CChar>?
    let entryHardlink: @convention(c) (Entry) -> UnsafePointer<CChar>?
    let entrySymlink: @convention(c) (Entry) -> UnsafePointer<CChar>?
    let entryFiletype: @convention(c) (Entry) -> mode_t
    let writeDiskNew: @convention(c) () -> Archive?
    let writeDiskSetOptions: @convention(c) (Archive, Int32) -> Int32
    let writeFree: @convention(c) (Archive) -> Int32
    let entryNew: @convention(c) () -> Entry?
    let entryFree: @convention(c) (Entry) -> Void
    let entrySetPathname: @convention(c) (Entry, UnsafePointer<CChar>) -> Void
    let entrySetPerm: @convention(c) (Entry, mode_t) -> Void
    let entrySetFiletype: @convention(c) (Entry, UInt32) -> Void
    let entrySetSymlink: @convention(c) (Entry, UnsafePointer<CChar>) -> Void
    let entrySetHardlink: @convention(c) (Entry, UnsafePointer<CChar>) -> Void
    let writeHeader: @convention(c) (Archive, Entry) -> Int32
    let writeDataBlock: @convention(c) (Archive, UnsafeRawPointer?, Int, Int64) -> Int
    let writeFinishEntry: @convention(c) (Archive) -> Int32
    let writeClose: @convention(c) (Archive) -> Int32

    /// libarchive as Debian installs it (the libarchive13 package, a dependency of libarchive-dev).
    static let loaded: Result<ArchiveFunctions, ArchiveFailure> = Result { () throws(ArchiveFailure) in try ArchiveFunctions() }

    /// The corresponding C functions are `dlopen` and `dlsym`.
    private init() throws(ArchiveFailure) {
        guard let library = dlopen("libarchive.so.13", RTLD_NOW | RTLD_LOCAL) else {
            let reason = dlerror().map { String(cString: $0) } ?? "not found"
            throw ArchiveFailure(code: ENOENT, message: "libarchive cannot be loaded (\(reason)); install it with `apt install libarchive13`")
        }
        func resolve<Function>(_ name: String) throws(ArchiveFailure) -> Function {
            guard let symbol = dlsym(library, name) else { throw ArchiveFailure(code: ENOENT, message: "libarchive lacks \(name)") }
            return unsafeBitCast(symbol, to: Function.self)
        }
        errorNumber = try resolve("archive_errno")
        errorString = try resolve("archive_error_string")
        readNew = try resolve("archive_read_new")
        readSupportFormatZip = try resolve("archive_read_support_format_zip")
        readSupportFormatTar = try resolve("archive_read_support_format_tar")
        readSupportFilterGzip = try resolve("archive_read_support_filter_gzip")
        readSupportFilterBzip2 = try resolve("archive_read_support_filter_bzip2")
        readSupportFilterXz = try resolve("archive_read_support_filter_xz")
        readOpenFd = try resolve("archive_read_open_fd")
        readFree = try resolve("archive_read_free")
        readNextHeader = try resolve("archive_read_next_header")
        readDataBlock = try resolve("archive_read_data_block")
        entryPathname = try resolve("archive_entry_pathname_utf8")
        entryHardlink = try resolve("archive_entry_hardlink_utf8")
        entrySymlink = try resolve("archive_entry_symlink_utf8")
        entryFiletype = try resolve("archive_entry_filetype")
        writeDiskNew = try resolve("archive_write_disk_new")
        writeDiskSetOptions = try resolve("archive_write_disk_set_options")
        writeFree = try resolve("archive_write_free")
        entryNew = try resolve("archive_entry_new")
        entryFree = try resolve("archive_entry_free")
        entrySetPathname = try resolve("archive_entry_set_pathname_utf8")
        entrySetPerm = try resolve("archive_entry_set_perm")
        entrySetFiletype = try resolve("archive_entry_set_filetype")
        entrySetSymlink = try resolve("archive_entry_set_symlink_utf8")
        entrySetHardlink = try resolve("archive_entry_set_hardlink_utf8")
        writeHeader = try resolve("archive_write_header")
        writeDataBlock = try resolve("archive_write_data_block")
        writeFinishEntry = try resolve("archive_write_finish_entry")
        writeClose = try resolve("archive_write_close")
    }
}

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
    fileprivate init(of archive: OpaquePointer, _ calls: ArchiveFunctions) {
        code = calls.errorNumber(archive)
        message = calls.errorString(archive).map { String(cString: $0) } ?? "libarchive gave no reason"
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
    private let calls: ArchiveFunctions
    private let handle: OpaquePointer

    /// Starts reading the archive open as `descriptor`; the descriptor stays the caller's to close. libarchive is
    /// loaded the first time.
    /// - Throws: What libarchive said when it cannot start reading the file; `ENOENT` when it cannot be loaded.
    /// The corresponding C functions are `archive_read_new`, `archive_read_support_format_zip`,
    /// `archive_read_support_format_tar`, `archive_read_support_filter_gzip`, `archive_read_support_filter_bzip2`,
    /// `archive_read_support_filter_xz` and `archive_read_open_fd`.
    init(descriptor: Int32) throws(ArchiveFailure) {
        let calls = try ArchiveFunctions.loaded.get()
        guard let handle = calls.readNew() else {
            throw ArchiveFailure(code: ENOMEM, message: "libarchive could not allocate a reader")
        }
        // A filter returns a mere warning when it will run an external program rather than a library, which works too.
        _ = calls.readSupportFormatZip(handle)
        _ = calls.readSupportFormatTar(handle)
        _ = calls.readSupportFilterGzip(handle)
        _ = calls.readSupportFilterBzip2(handle)
        _ = calls.readSupportFilterXz(handle)
        guard calls.readOpenFd(handle, descriptor, 64 * 1024) == ARCHIVE_OK else {
            let failure = ArchiveFailure(of: handle, calls)
            _ = calls.readFree(handle)
            throw failure
        }
        self.calls = calls
        self.handle = handle
    }

    /// The corresponding C function is `archive_read_free`.
    deinit {
        _ = calls.readFree(handle)
    }

    /// The next entry's header, copied; nil after the last entry. Data left unread of the previous entry is skipped.
    /// - Throws: What libarchive said when the archive is truncated or corrupt, or a name cannot be read.
    /// The corresponding C functions are `archive_read_next_header`, `archive_entry_pathname_utf8`,
    /// `archive_entry_hardlink_utf8`, `archive_entry_filetype` and `archive_entry_symlink_utf8`.
    func nextHeader() throws(ArchiveFailure) -> EntryHeader? {
        var entry: OpaquePointer?
        let status = calls.readNextHeader(handle, &entry)
        if status == ARCHIVE_EOF { return nil }
        // A warning comes with a usable header; a name that cannot be converted is caught just below.
        guard status >= ARCHIVE_WARN, let entry, let name = calls.entryPathname(entry) else {
            throw ArchiveFailure(of: handle, calls)
        }
        return EntryHeader(name: String(cString: name), type: type(of: entry))
    }

    /// The next block of the current entry's data; nil after its last.
    /// - Throws: What libarchive said when the data is truncated or corrupt. A zip's bad CRC is only a
    ///   warning to libarchive, so warnings fail too.
    /// The corresponding C function is `archive_read_data_block`.
    func nextBlock() throws(ArchiveFailure) -> DataBlock? {
        var bytes: UnsafeRawPointer?
        var count = 0
        var offset: Int64 = 0
        let status = calls.readDataBlock(handle, &bytes, &count, &offset)
        if status == ARCHIVE_EOF { return nil }
        guard status == ARCHIVE_OK else { throw ArchiveFailure(of: handle, calls) }
        return DataBlock(bytes: UnsafeRawBufferPointer(start: bytes, count: count), offset: offset)
    }

    /// A hard link's type is the file's it shares (or none, in tar), so its target is looked at first.
    private func type(of entry: OpaquePointer) -> EntryType {
        if let target = calls.entryHardlink(entry) {
            return .hardLink(target: String(cString: target))
        }
        switch calls.entryFiletype(entry) {
        case carchive_regular_file():
            return .file
        case carchive_directory():
            return .directory
        case carchive_symbolic_link():
            guard let target = calls.entrySymlink(entry) else { return .unsupported("a symbolic link without a target") }
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
    private let calls: ArchiveFunctions
    private let handle: OpaquePointer

    /// A writer with libarchive's guards on.
    ///
    /// libarchive briefly sets the umask to 0 to read it here: the process's, unless the thread has its own.
    /// - Throws: When libarchive cannot allocate the writer; `ENOENT` when it cannot be loaded.
    /// The corresponding C functions are `archive_write_disk_new` and `archive_write_disk_set_options`.
    init() throws(ArchiveFailure) {
        let calls = try ArchiveFunctions.loaded.get()
        guard let handle = calls.writeDiskNew() else {
            throw ArchiveFailure(code: ENOMEM, message: "libarchive could not allocate a writer")
        }
        let options =
            ARCHIVE_EXTRACT_SECURE_NODOTDOT | ARCHIVE_EXTRACT_SECURE_SYMLINKS | ARCHIVE_EXTRACT_SECURE_NOABSOLUTEPATHS
            | ARCHIVE_EXTRACT_NO_AUTODIR
        guard calls.writeDiskSetOptions(handle, options) == ARCHIVE_OK else {
            let failure = ArchiveFailure(of: handle, calls)
            _ = calls.writeFree(handle)
            throw failure
        }
        self.calls = calls
        self.handle = handle
    }

    /// The corresponding C function is `archive_write_free`, which also closes the writer if `close()` was not called.
    deinit {
        _ = calls.writeFree(handle)
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
        guard let entry = calls.entryNew() else {
            throw ArchiveFailure(code: ENOMEM, message: "libarchive could not allocate an entry")
        }
        defer { calls.entryFree(entry) }
        calls.entrySetPathname(entry, path)
        calls.entrySetPerm(entry, permissions)
        switch type {
        case .file:
            calls.entrySetFiletype(entry, UInt32(carchive_regular_file()))
        case .directory:
            calls.entrySetFiletype(entry, UInt32(carchive_directory()))
        case .symbolicLink(let target):
            calls.entrySetFiletype(entry, UInt32(carchive_symbolic_link()))
            calls.entrySetSymlink(entry, target)
        case .hardLink(let target):
            calls.entrySetFiletype(entry, UInt32(carchive_regular_file()))
            calls.entrySetHardlink(entry, target)
        }
        guard calls.writeHeader(handle, entry) >= ARCHIVE_WARN else { throw ArchiveFailure(of: handle, calls) }
    }

    /// Writes a block into the file created last.
    /// - Throws: What libarchive or the system said: `ENOSPC` when the disk is full. libarchive reports a
    ///   failed `write` as a mere warning, so warnings fail too.
    /// The corresponding C function is `archive_write_data_block`.
    func write(_ block: DataBlock) throws(ArchiveFailure) {
        guard calls.writeDataBlock(handle, block.bytes.baseAddress, block.bytes.count, block.offset) == ARCHIVE_OK else {
            throw ArchiveFailure(of: handle, calls)
        }
    }

    /// Finishes what was created last: closes a file.
    /// - Throws: What libarchive or the system said.
    /// The corresponding C function is `archive_write_finish_entry`.
    func finishEntry() throws(ArchiveFailure) {
        guard calls.writeFinishEntry(handle) >= ARCHIVE_WARN else { throw ArchiveFailure(of: handle, calls) }
    }

    /// Finishes the last entry and applies what libarchive deferred to the end.
    /// - Throws: What libarchive or the system said.
    /// The corresponding C function is `archive_write_close`.
    func close() throws(ArchiveFailure) {
        guard calls.writeClose(handle) >= ARCHIVE_WARN else { throw ArchiveFailure(of: handle, calls) }
    }
}

@available(*, unavailable)
extension DiskWriter: Sendable {}
