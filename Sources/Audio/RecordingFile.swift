import Glibc

/// A file operation that failed, with the `errno` it failed with.
public struct FileError: Error, Sendable {
    public let path: String
    public let code: Int32

    public var message: String { "Cannot write \(path): \(String(cString: strerror(code)))" }

    /// The file system is full (or the user's quota is).
    var isOutOfSpace: Bool { code == ENOSPC || code == EDQUOT }
}

/// A WAV file being recorded into, kept valid on disk as it grows.
///
/// Samples are appended as they arrive; about once per second of audio the header
/// sizes are rewritten and the file synced, so a crash loses at most that second.
/// Non-copyable so that the descriptor has one owner and is closed once.
struct RecordingFile: ~Copyable {
    let path: String
    private let descriptor: Int32
    private(set) var dataBytes: UInt64 = 0
    private var bytesSinceCheckpoint = 0

    /// Creates `<directory>/<name>` with mode 0600, failing if it exists, and
    /// writes a header for an empty recording.
    ///
    /// The directory (and any missing parent) is created with mode 0700, and
    /// tightened to 0700 if it exists with other modes: recordings are private.
    init(directory: String, name: String) throws(FileError) {
        try Self.preparePrivateDirectory(directory)
        let path = directory.hasSuffix("/") ? directory + name : directory + "/" + name
        let descriptor = open(path, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw FileError(path: path, code: errno) }
        do throws(FileError) {
            // The umask may only narrow the mode; fchmod makes it exactly 0600 either way.
            try Self.check(fchmod(descriptor, 0o600), path)
            try WAVHeader.bytes(dataSize: 0).withUnsafeBytes { header in
                Result { () throws(FileError) in try Self.writeAll(descriptor, header, path) }
            }.get()
            try Self.syncDirectoryEntry(of: directory)
        } catch {
            close(descriptor)
            unlink(path)
            throw error
        }
        self.path = path
        self.descriptor = descriptor
    }

    /// Appends samples; rewrites the header and syncs once a second of audio has accumulated.
    /// A write that fails leaves the file as it was before it: a valid WAV of what was written.
    mutating func append(_ samples: UnsafeRawBufferPointer) throws(FileError) {
        do throws(FileError) {
            try Self.writeAll(descriptor, samples, path)
        } catch {
            keepValidEnd()
            throw error
        }
        dataBytes += UInt64(samples.count)
        bytesSinceCheckpoint += samples.count
        if bytesSinceCheckpoint >= RecordingFormat.bytesPerSecond {
            try checkpoint()
        }
    }

    /// Finalizes the header, syncs and closes the file.
    /// - Returns: The number of sample bytes in the file.
    consuming func finish() throws(FileError) -> UInt64 {
        defer { close(descriptor) }
        try Self.patchSizes(descriptor, dataBytes: dataBytes, path: path)
        try Self.check(fdatasync(descriptor), path)
        return dataBytes
    }

    /// Closes and deletes the file.
    consuming func discard() {
        close(descriptor)
        unlink(path)
    }

    /// Cuts a partly written block off (a full disk takes what fits, then refuses), puts the
    /// header in line and syncs; the next write continues at the end. Shrinking and rewriting
    /// the header need no new blocks, so this works on a full disk too.
    private mutating func keepValidEnd() {
        let end = off_t(WAVHeader.size) + off_t(dataBytes)
        _ = ftruncate(descriptor, end)
        _ = lseek(descriptor, end, SEEK_SET)
        bytesSinceCheckpoint = 0
        _ = try? Self.patchSizes(descriptor, dataBytes: dataBytes, path: path)
        _ = fdatasync(descriptor)
    }

    /// Rewrites the header for what was written so far and syncs: the file is valid on disk now.
    mutating func checkpoint() throws(FileError) {
        bytesSinceCheckpoint = 0
        try Self.patchSizes(descriptor, dataBytes: dataBytes, path: path)
        try Self.check(fdatasync(descriptor), path)
    }

    private static func writeAll(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer, _ path: String)
        throws(FileError)
    {
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

    private static func patchSizes(_ descriptor: Int32, dataBytes: UInt64, path: String) throws(FileError) {
        try pwriteAll(
            descriptor, WAVHeader.littleEndian(WAVHeader.riffSize(dataSize: dataBytes)),
            at: WAVHeader.riffSizeOffset, path)
        try pwriteAll(
            descriptor, WAVHeader.littleEndian(WAVHeader.dataFieldSize(dataSize: dataBytes)),
            at: WAVHeader.dataSizeOffset, path)
    }

    static func pwriteAll(_ descriptor: Int32, _ bytes: [UInt8], at offset: Int, _ path: String)
        throws(FileError)
    {
        let written = bytes.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, off_t(offset)) }
        guard written == bytes.count else { throw FileError(path: path, code: written < 0 ? errno : EIO) }
    }

    private static func preparePrivateDirectory(_ directory: String) throws(FileError) {
        var status = stat()
        if stat(directory, &status) == 0 {
            if status.st_mode & 0o777 != 0o700 {
                try check(chmod(directory, 0o700), directory)
            }
            return
        }
        guard errno == ENOENT else { throw FileError(path: directory, code: errno) }
        let parent = parentDirectory(of: directory)
        if !parent.isEmpty && stat(parent, &status) != 0 {
            try preparePrivateDirectory(parent)
        }
        if mkdir(directory, 0o700) != 0 && errno != EEXIST {
            throw FileError(path: directory, code: errno)
        }
        try check(chmod(directory, 0o700), directory)
    }

    private static func parentDirectory(of path: String) -> String {
        let trimmed = path.hasSuffix("/") ? String(path.dropLast()) : path
        guard let slash = trimmed.lastIndex(of: "/") else { return "" }
        return String(trimmed[..<slash])
    }

    /// Makes the new file's name survive a power cut, not only its contents.
    private static func syncDirectoryEntry(of directory: String) throws(FileError) {
        let descriptor = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { throw FileError(path: directory, code: errno) }
        defer { close(descriptor) }
        try check(fsync(descriptor), directory)
    }

    static func check(_ result: Int32, _ path: String) throws(FileError) {
        guard result == 0 else { throw FileError(path: path, code: errno) }
    }
}
