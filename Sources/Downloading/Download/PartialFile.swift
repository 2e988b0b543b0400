import Glibc

/// The file a download writes into, kept between attempts so that a later one resumes where an
/// interrupted one stopped.
///
/// Created 0600 from its first byte (`O_EXCL`, whatever the umask), in a folder created 0700 when missing:
/// what the user downloads is theirs alone. A link in its place is refused, not followed.
final class PartialFile {
    let path: String
    private let descriptor: Int32

    /// Opens `path` for writing, creating it and its folder when missing; what it holds stays.
    /// - Throws: `.fileError` (or `.diskFull`) with the system's reason when the file or a folder cannot be made.
    init(path: String) throws(DownloadError) {
        if let folder = Self.folder(of: path) { try Self.makeFolder(folder) }
        var descriptor = open(path, O_WRONLY | O_CLOEXEC | O_NOFOLLOW)
        if descriptor < 0 && errno == ENOENT { descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o600) }
        guard descriptor >= 0 else { throw .file(path, errno: errno) }
        self.path = path
        self.descriptor = descriptor
    }

    deinit {
        close(descriptor)
    }

    /// The bytes the file holds.
    /// - Throws: `.fileError` when `fstat` fails.
    var size: Int64 {
        get throws(DownloadError) {
            var status = stat()
            guard fstat(descriptor, &status) == 0 else { throw .file(path, errno: errno) }
            return Int64(status.st_size)
        }
    }

    /// Removes the file when it is a regular file that holds no byte. A device given as the file (`/dev/full`)
    /// also measures 0 bytes, and must stay; so does a file that cannot be measured.
    func removeIfEmpty() {
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG, status.st_size == 0 else { return }
        unlink(path)
    }

    /// Keeps the first `count` bytes, dropping any after them, and places the next write after them.
    /// - Throws: `.fileError` when the file cannot be truncated or positioned.
    func keepFirst(_ count: Int64) throws(DownloadError) {
        // Only truncate what is longer: a device such as /dev/full cannot be truncated, and needs not be.
        if try size > count, ftruncate(descriptor, off_t(count)) != 0 { throw .file(path, errno: errno) }
        guard lseek(descriptor, off_t(count), SEEK_SET) >= 0 else { throw .file(path, errno: errno) }
    }

    /// Writes all of `bytes` at the current position.
    /// - Throws: `.diskFull` when the disk or the user's quota is full, `.fileError` for any other failure.
    func write(_ bytes: UnsafeRawBufferPointer) throws(DownloadError) {
        guard let base = bytes.baseAddress else { return }
        var written = 0
        while written < bytes.count {
            let result = Glibc.write(descriptor, base + written, bytes.count - written)
            if result < 0 && errno == EINTR { continue }
            guard result >= 0 else { throw .file(path, errno: errno) }
            written += result
        }
    }

    /// The folder part of `path`; `nil` for a bare name, which lives in the working folder, and for `/`.
    private static func folder(of path: String) -> String? {
        guard let slash = path.lastIndex(of: "/"), slash != path.startIndex else { return nil }
        return String(path[..<slash])
    }

    /// Creates `folder` and any missing folder above it, 0700.
    private static func makeFolder(_ folder: String) throws(DownloadError) {
        if mkdir(folder, 0o700) == 0 || errno == EEXIST { return }
        guard errno == ENOENT, let parent = Self.folder(of: folder) else { throw .file(folder, errno: errno) }
        try makeFolder(parent)
        guard mkdir(folder, 0o700) == 0 || errno == EEXIST else { throw .file(folder, errno: errno) }
    }
}

@available(*, unavailable)
extension PartialFile: Sendable {}

extension DownloadError {
    /// The error of a system call on `path` that failed with `code`: `.diskFull` for a full disk or quota.
    static func file(_ path: String, errno code: Int32) -> DownloadError {
        switch code {
        case ENOSPC, EDQUOT:
            return .diskFull(path: path)
        default:
            return .fileError(path: path, reason: String(cString: strerror(code)))
        }
    }
}
