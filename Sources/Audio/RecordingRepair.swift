import Glibc
import Recording

/// Makes a recording whose writer died (a kill, a power cut) a valid WAV file again.
///
/// The writer rewrites the header's sizes once a second, so after a crash they lag behind the
/// samples on disk, or still say 0. Repair trusts the file's length instead: every whole sample
/// written is kept.
public enum RecordingRepair {
    /// Rewrites the header of the WAV file at `path` for the samples it holds; drops a trailing
    /// half sample.
    /// - Returns: seconds of audio in the file.
    /// - Throws: `FileError` when the file cannot be opened, written or synced.
    public static func repair(_ path: String) throws(FileError) -> Double {
        let descriptor = open(path, O_RDWR | O_CLOEXEC)
        guard descriptor >= 0 else { throw FileError(path: path, code: errno) }
        defer { close(descriptor) }
        var status = stat()
        try RecordingFile.check(fstat(descriptor, &status), path)
        let blockAlign = Int64(RecordingFormat.channels * RecordingFormat.bytesPerSample)
        let onDisk = max(0, Int64(status.st_size) - Int64(WAVHeader.size))
        let dataBytes = onDisk - onDisk % blockAlign
        if Int64(status.st_size) != Int64(WAVHeader.size) + dataBytes {
            try RecordingFile.check(ftruncate(descriptor, off_t(Int64(WAVHeader.size) + dataBytes)), path)
        }
        try RecordingFile.pwriteAll(descriptor, WAVHeader.bytes(dataSize: UInt64(dataBytes)), at: 0, path)
        try RecordingFile.check(fdatasync(descriptor), path)
        return Double(dataBytes) / Double(RecordingFormat.bytesPerSecond)
    }
}
