import Glibc

/// A short sound, decoded: interleaved 16-bit samples.
struct Sound: Sendable {
    let samples: [Int16]
    let rate: Int
    let channels: Int
}

/// Decodes the sound theme's files (Ogg Vorbis `.oga`, `.ogg`, `.wav`) with libsndfile, opened with
/// `dlopen`: libpulse itself depends on it, so it is where the sound server's client library is,
/// and Notula needs no build-time header for it. Absent, the cues are silent and the journal says so.
enum SoundFile {
    /// libsndfile's `SF_INFO` (sndfile.h): `sf_count_t frames; int samplerate, channels, format, sections, seekable`.
    private struct Info {
        var frames: Int64 = 0
        var rate: Int32 = 0
        var channels: Int32 = 0
        var format: Int32 = 0
        var sections: Int32 = 0
        var seekable: Int32 = 0
    }
    private typealias Open = @convention(c) (UnsafePointer<CChar>, Int32, UnsafeMutableRawPointer) -> OpaquePointer?
    private typealias ReadShorts = @convention(c) (OpaquePointer, UnsafeMutablePointer<Int16>, Int64) -> Int64
    private typealias Close = @convention(c) (OpaquePointer) -> Int32
    private struct Functions: Sendable {
        let open: Open
        let readFrames: ReadShorts
        let close: Close
    }
    private static let readOnly: Int32 = 0x10
    /// A cue longer than this is cut: it would hold the recording's start too long.
    static let longestSeconds = 2
    private static let mostChannels: Int32 = 8
    private static let highestRate: Int32 = 192_000

    /// The library, or why it is missing; opened at the first sound.
    private static let library: Result<Functions, SoundError> = {
        guard let handle = dlopen("libsndfile.so.1", RTLD_NOW | RTLD_LOCAL) else {
            return .failure(SoundError("libsndfile.so.1 is not installed: the cues are silent"))
        }
        guard let open = dlsym(handle, "sf_open"), let read = dlsym(handle, "sf_readf_short"), let close = dlsym(handle, "sf_close")
        else { return .failure(SoundError("libsndfile.so.1 lacks sf_open, sf_readf_short or sf_close: the cues are silent")) }
        return .success(
            Functions(
                open: unsafeBitCast(open, to: Open.self), readFrames: unsafeBitCast(read, to: ReadShorts.self),
                close: unsafeBitCast(close, to: Close.self)))
    }()

    /// The first `longestSeconds` of the sound in `path`.
    static func decode(_ path: String) throws(SoundError) -> Sound {
        let functions = try library.get()
        var info = Info()
        guard let file = withUnsafeMutablePointer(to: &info, { functions.open(path, readOnly, $0) }) else {
            throw SoundError("Cannot decode \(path)")
        }
        defer { _ = functions.close(file) }
        guard (1...mostChannels).contains(info.channels), (1...highestRate).contains(info.rate) else {
            throw SoundError("\(path) is not a sound Notula plays (\(info.channels) channels at \(info.rate) Hz)")
        }
        let frames = Int(min(max(info.frames, 0), Int64(info.rate) * Int64(longestSeconds)))
        var samples = [Int16](repeating: 0, count: frames * Int(info.channels))
        let read = samples.withUnsafeMutableBufferPointer { buffer in
            buffer.baseAddress.map { functions.readFrames(file, $0, Int64(frames)) } ?? 0
        }
        samples.removeLast(samples.count - Int(max(read, 0)) * Int(info.channels))
        return Sound(samples: samples, rate: Int(info.rate), channels: Int(info.channels))
    }
}

struct SoundError: Error, Sendable {
    let message: String
    init(_ message: String) { self.message = message }
}
