import Glibc

/// The samples of a 16 kHz mono 16-bit PCM WAV file, read a block at a time.
///
/// The header is checked chunk by chunk (`RIFF`/`WAVE`, a PCM `fmt ` chunk, then `data`; other chunks such
/// as `LIST` are skipped). A `data` size larger than the file, as a recording cut short leaves, reads to the end.
/// Non-copyable so that the descriptor has one owner and is closed once.
struct WAVSamples: ~Copyable {
    let path: String
    private let descriptor: Int32
    /// The file offset of the next sample to read.
    private var position: Int
    /// Sample bytes not yet read.
    private var remaining: Int

    /// Opens `path` and checks its header.
    /// - Throws: `.audioUnreadable` when the file cannot be opened or read; `.unsupportedAudio` saying
    ///   what is wrong when it is not a 16 kHz mono 16-bit PCM WAV.
    init(path: String) throws(SpeechError) {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw Self.unreadable(path) }
        do throws(SpeechError) {
            var status = stat()
            guard fstat(descriptor, &status) == 0 else { throw Self.unreadable(path) }
            let data = try Self.findSamples(descriptor, fileSize: Int(status.st_size), path: path)
            self.position = data.offset
            self.remaining = data.size
        } catch {
            close(descriptor)
            throw error
        }
        self.path = path
        self.descriptor = descriptor
    }

    deinit {
        close(descriptor)
    }

    /// Fills `buffer` with the next samples.
    /// - Returns: How many samples were read; fewer than the buffer holds only at the end, 0 after it.
    /// - Throws: `.audioUnreadable` when reading fails.
    mutating func read(into buffer: UnsafeMutableBufferPointer<Int16>) throws(SpeechError) -> Int {
        let wanted = min(buffer.count * 2, remaining & ~1)
        let bytes = UnsafeMutableRawBufferPointer(buffer)
        var filled = 0
        while filled < wanted {
            let got = pread(descriptor, bytes.baseAddress! + filled, wanted - filled, off_t(position + filled))
            if got < 0 && errno == EINTR { continue }
            guard got >= 0 else { throw Self.unreadable(path) }
            if got == 0 { break }  // The file shrank since the header was read.
            filled += got
        }
        position += filled
        remaining = filled < wanted ? 0 : remaining - filled
        let count = filled / 2
        for index in 0..<count {
            buffer[index] = Int16(littleEndian: buffer[index])
        }
        return count
    }

    // MARK: The header

    private static let pcm: UInt16 = 1

    /// Walks the chunks up to `data`, checking `fmt ` on the way.
    private static func findSamples(_ descriptor: Int32, fileSize: Int, path: String) throws(SpeechError)
        -> (offset: Int, size: Int)
    {
        let riff = try readBytes(descriptor, at: 0, count: 12, path: path)
        guard riff.count == 12, tag(riff, 0) == "RIFF", tag(riff, 8) == "WAVE" else {
            throw .unsupportedAudio("\(path) is not a WAV file (it does not start with a RIFF/WAVE header).")
        }
        var offset = 12
        var sawFormat = false
        while true {
            let header = try readBytes(descriptor, at: offset, count: 8, path: path)
            guard header.count == 8 else {
                throw .unsupportedAudio(
                    sawFormat ? "\(path) has no data chunk." : "\(path) has no fmt chunk describing its samples.")
            }
            let id = tag(header, 0)
            let size = Int(uint32(header, 4))
            let body = offset + 8
            switch id {
            case "fmt ":
                try checkFormat(try readBytes(descriptor, at: body, count: min(size, 40), path: path), path: path)
                sawFormat = true
            case "data":
                guard sawFormat else {
                    throw .unsupportedAudio("\(path) has its data chunk before the fmt chunk describing it.")
                }
                return (body, min(size, max(0, fileSize - body)))
            default:
                break
            }
            offset = body + size + size % 2  // Chunks are padded to an even length.
        }
    }

    /// Requires PCM, one channel, 16 000 Hz and 16 bits, naming every way the file differs.
    private static func checkFormat(_ format: [UInt8], path: String) throws(SpeechError) {
        guard format.count >= 16 else {
            throw .unsupportedAudio("\(path) has a fmt chunk of \(format.count) bytes, too short to describe PCM audio.")
        }
        let encoding = uint16(format, 0)
        let channels = uint16(format, 2)
        let sampleRate = uint32(format, 4)
        let bitsPerSample = uint16(format, 14)
        var problems: [String] = []
        if encoding != pcm {
            problems.append("encoding \(encoding == 0xFFFE ? "WAVE_FORMAT_EXTENSIBLE" : "format tag \(encoding)") instead of plain PCM")
        }
        if channels != 1 { problems.append("\(channels) channels instead of 1 (mono)") }
        if sampleRate != UInt32(Recognizer.sampleRate) { problems.append("\(sampleRate) Hz instead of 16000 Hz") }
        if bitsPerSample != 16 { problems.append("\(bitsPerSample) bits per sample instead of 16") }
        guard problems.isEmpty else {
            throw .unsupportedAudio(
                "\(path) is not 16 kHz mono 16-bit PCM: it has \(problems.joined(separator: ", ")). "
                    + "Convert it with `sox in.wav -r 16000 -c 1 -b 16 out.wav`."
            )
        }
    }

    private static func readBytes(_ descriptor: Int32, at offset: Int, count: Int, path: String) throws(SpeechError)
        -> [UInt8]
    {
        var bytes = [UInt8](repeating: 0, count: count)
        var filled = 0
        while filled < count {
            let got = bytes.withUnsafeMutableBytes {
                pread(descriptor, $0.baseAddress! + filled, count - filled, off_t(offset + filled))
            }
            if got < 0 && errno == EINTR { continue }
            guard got >= 0 else { throw unreadable(path) }
            if got == 0 { break }
            filled += got
        }
        return Array(bytes[..<filled])
    }

    private static func tag(_ bytes: [UInt8], _ offset: Int) -> String {
        String(decoding: bytes[offset..<offset + 4], as: UTF8.self)
    }

    private static func uint16(_ bytes: [UInt8], _ offset: Int) -> UInt16 {
        UInt16(bytes[offset]) | UInt16(bytes[offset + 1]) << 8
    }

    private static func uint32(_ bytes: [UInt8], _ offset: Int) -> UInt32 {
        (0..<4).reduce(0) { $0 | UInt32(bytes[offset + $1]) << (8 * $1) }
    }

    /// The error for a failed open or read, with the system's reason.
    private static func unreadable(_ path: String) -> SpeechError {
        .audioUnreadable("Cannot read \(path): \(String(cString: strerror(errno))).")
    }
}
