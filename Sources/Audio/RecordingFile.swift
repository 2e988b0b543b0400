import Glibc
import Recording

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
        try PrivateFiles.makeFolder(directory)
        let path = directory.hasSuffix("/") ? directory + name : directory + "/" + name
        let descriptor = try PrivateFiles.create(path)
        do throws(FileError) {
            try WAVHeader.bytes(dataSize: 0).withUnsafeBytes { header in
                Result { () throws(FileError) in try PrivateFiles.writeAll(descriptor, header, path) }
            }.get()
            try PrivateFiles.syncEntries(of: directory)
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
            try PrivateFiles.writeAll(descriptor, samples, path)
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

    static func check(_ result: Int32, _ path: String) throws(FileError) {
        guard result == 0 else { throw FileError(path: path, code: errno) }
    }
}
