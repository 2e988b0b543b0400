/// The one format Notula records in: what the speech engine reads without resampling.
public enum RecordingFormat {
    static let sampleRate = 16_000
    static let channels = 1
    static let bytesPerSample = 2
    public static let bytesPerSecond = sampleRate * channels * bytesPerSample
}

/// The 44-byte header of a canonical PCM WAV file in `RecordingFormat`.
///
/// Only the two size fields change while recording, so a file can be kept valid
/// by rewriting them in place.
public enum WAVHeader {
    static let size = 44
    static let riffSizeOffset = 4
    static let dataSizeOffset = 40
    /// The most sample bytes a file can declare (its RIFF size is a 32-bit count): 37 hours of audio.
    public static let largestDataSize = UInt64(UInt32.max) - UInt64(size - 8)

    /// The whole header for a file holding `dataSize` bytes of samples.
    static func bytes(dataSize: UInt64) -> [UInt8] {
        let blockAlign = RecordingFormat.channels * RecordingFormat.bytesPerSample
        var header: [UInt8] = []
        header.reserveCapacity(size)
        header += Array("RIFF".utf8)
        header += littleEndian(riffSize(dataSize: dataSize))
        header += Array("WAVE".utf8)
        header += Array("fmt ".utf8)
        header += littleEndian(UInt32(16))
        header += littleEndian(UInt16(1))  // PCM
        header += littleEndian(UInt16(RecordingFormat.channels))
        header += littleEndian(UInt32(RecordingFormat.sampleRate))
        header += littleEndian(UInt32(RecordingFormat.bytesPerSecond))
        header += littleEndian(UInt16(blockAlign))
        header += littleEndian(UInt16(RecordingFormat.bytesPerSample * 8))
        header += Array("data".utf8)
        header += littleEndian(dataFieldSize(dataSize: dataSize))
        return header
    }

    /// The RIFF chunk size field: everything after the first 8 bytes.
    static func riffSize(dataSize: UInt64) -> UInt32 {
        UInt32(clamping: dataSize + UInt64(size - 8))
    }

    /// The data chunk size field; past 4 GiB (37 hours) it saturates rather than wraps.
    static func dataFieldSize(dataSize: UInt64) -> UInt32 {
        UInt32(clamping: dataSize)
    }

    static func littleEndian<T: FixedWidthInteger>(_ value: T) -> [UInt8] {
        withUnsafeBytes(of: value.littleEndian) { Array($0) }
    }
}
