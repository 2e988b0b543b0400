import Glibc
import Recording

/// Makes a recording whose writer died (a kill, a power cut) a valid WAV file again.
///
/// The writer rewrites the header's sizes once a second, so after a crash they lag behind the
/// samples on disk, or still say 0. Repair trusts the file's length instead: every whole sample
/// written is kept.
public enum RecordingRepair {
    /// Rewrites the header of the WAV file at `path` for the samples it holds; drops a trailing
    /// half sample. A file whose header is not the one Notula writes is left as it is.
    /// - Returns: seconds of audio in the file.
    /// - Throws: `RepairError` when the file is gone, is not Notula's, or cannot be read, written or synced.
    public static func repair(_ path: String) throws(RepairError) -> Double {
        guard let seconds = try repairedSeconds(path) else { throw RepairError(path: path, code: nil) }
        return seconds
    }

    /// The seconds of audio in the repaired file; nil for a file whose header is not Notula's.
    private static func repairedSeconds(_ path: String) throws(RepairError) -> Double? {
        let descriptor = open(path, O_RDWR | O_CLOEXEC)
        guard descriptor >= 0 else { throw RepairError(path: path, code: errno) }
        defer { close(descriptor) }
        do throws(FileError) {
            guard try hasOwnHeader(descriptor, path) else { return nil }
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
        } catch {
            throw RepairError(path: path, code: error.code)
        }
    }

    /// Whether the file starts as the header Notula writes (sizes aside), or with a part of it: the
    /// writer's first write, cut short by the crash.
    private static func hasOwnHeader(_ descriptor: Int32, _ path: String) throws(FileError) -> Bool {
        var start = [UInt8](repeating: 0, count: WAVHeader.size)
        let read = start.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, 0) }
        guard read >= 0 else { throw FileError(path: path, code: errno) }
        let sizes = Set(WAVHeader.riffSizeOffset..<WAVHeader.riffSizeOffset + 4)
            .union(WAVHeader.dataSizeOffset..<WAVHeader.dataSizeOffset + 4)
        let own = WAVHeader.bytes(dataSize: 0)
        return (0..<read).allSatisfy { sizes.contains($0) || start[$0] == own[$0] }
    }
}
