#if canImport(Glibc)
    import Glibc
#endif

/// A file operation that failed, with the `errno` it failed with.
public struct FileError: Error, Sendable, CustomStringConvertible {
    public let path: String
    public let code: Int32

    public init(path: String, code: Int32) {
        self.path = path
        self.code = code
    }

    public var message: String { "Cannot write \(path): \(String(cString: strerror(code)))" }
    public var description: String { message }

    /// The file system is full (or the user's quota is).
    public var isOutOfSpace: Bool { code == ENOSPC || code == EDQUOT }
}

/// The one way notulad makes files and folders. Memos are clinical notes: a file is the user's
/// alone (0600) from its first byte, never made readable by others for a moment and tightened
/// afterwards, and its folder only the user can enter (0700).
public enum PrivateFiles {
    /// Creates `path`, which must not exist, with mode 0600, open for writing.
    /// - Returns: The descriptor, the caller's to close.
    public static func create(_ path: String) throws(FileError) -> Int32 {
        let descriptor = open(path, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw FileError(path: path, code: errno) }
        // A umask masking more than 077 (0277, say) may have taken the owner's write bit: exactly 0600, never more.
        var status = stat()
        var code: Int32 = 0
        if fstat(descriptor, &status) != 0 {
            code = errno
        } else if status.st_mode & 0o7777 != 0o600, fchmod(descriptor, 0o600) != 0 {
            code = errno
        }
        guard code == 0 else {
            close(descriptor)
            unlink(path)
            throw FileError(path: path, code: code)
        }
        return descriptor
    }

    /// Makes `bytes` the whole of `path` at once or not at all: a new file beside it, 0600 from its
    /// creation and synced, renamed over it. The folder is made if missing.
    public static func replace(_ path: String, with bytes: [UInt8]) throws(FileError) {
        let folder = parent(of: path)
        try makeFolder(folder)
        let staging = path + ".new"
        // A staging file a crash left behind would make the creation fail; it holds nothing worth keeping.
        if unlink(staging) != 0 && errno != ENOENT { throw FileError(path: staging, code: errno) }
        let descriptor = try create(staging)
        let written = bytes.withUnsafeBytes { buffer in
            Result { () throws(FileError) in
                try writeAll(descriptor, buffer, staging)
                guard fsync(descriptor) == 0 else { throw FileError(path: staging, code: errno) }
            }
        }
        let closed = close(descriptor) == 0 ? 0 : errno
        do throws(FileError) {
            try written.get()
            guard closed == 0 else { throw FileError(path: staging, code: closed) }
        } catch {
            unlink(staging)
            throw error
        }
        guard rename(staging, path) == 0 else {
            let code = errno
            unlink(staging)
            throw FileError(path: path, code: code)
        }
        try syncEntries(of: folder)
    }

    /// Makes `folder` and any missing parent with mode 0700; an existing `folder` of other modes is
    /// tightened to 0700 (its parents, which may be the user's own XDG folders, are left as they are).
    /// Only for Notula's own folders, and so `replace` only for files in them.
    public static func makeFolder(_ folder: String) throws(FileError) {
        guard !folder.isEmpty else { return }
        var status = stat()
        if stat(folder, &status) == 0 {
            guard status.st_mode & 0o7777 != 0o700 else { return }
            guard chmod(folder, 0o700) == 0 else { throw FileError(path: folder, code: errno) }
            return
        }
        guard errno == ENOENT else { throw FileError(path: folder, code: errno) }
        let above = parent(of: folder)
        if stat(above, &status) != 0 { try makeFolder(above) }
        guard mkdir(folder, 0o700) == 0 || errno == EEXIST else { throw FileError(path: folder, code: errno) }
        // The umask may have narrowed it further: exactly 0700.
        try makeFolder(folder)
    }

    /// Makes the names just created or renamed in `folder` survive a power cut, not only their contents.
    public static func syncEntries(of folder: String) throws(FileError) {
        let descriptor = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { throw FileError(path: folder, code: errno) }
        defer { close(descriptor) }
        guard fsync(descriptor) == 0 else { throw FileError(path: folder, code: errno) }
    }

    /// Writes all of `bytes` at the descriptor's offset, going on after an interruption.
    public static func writeAll(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer, _ path: String) throws(FileError) {
        var offset = 0
        while offset < bytes.count {
            let written = write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                throw FileError(path: path, code: errno)
            }
            offset += written
        }
    }

    /// The folder `path` is in; empty for a bare name.
    public static func parent(of path: String) -> String {
        let trimmed = path.hasSuffix("/") ? String(path.dropLast()) : path
        guard let slash = trimmed.lastIndex(of: "/") else { return "" }
        return String(trimmed[..<slash])
    }
}
