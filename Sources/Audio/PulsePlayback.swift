import CPulse
import Dispatch
import Glibc
import Synchronization

/// How a playback ended.
public enum PlaybackEnd: Sendable, Equatable {
    /// The whole file was played.
    case finished
    /// `stop()` ended it, or another file took its place.
    case stopped
    /// The file could not be read, or the sound server refused the stream or lost it.
    case failed(String)
}

/// Plays Notula's WAV recordings (16 kHz mono s16le) through a PulseAudio playback stream, one
/// file at a time, to the default sink (or `$PULSE_SINK`).
///
/// Uses libpulse's simple API on a thread of its own: playback is a blocking stream of writes,
/// unlike the capture, whose pauses and level readings need the threaded main loop. Every libpulse
/// call of playback is in this file.
public final class PulsePlayback: Sendable {
    /// A chunk of 100 ms: how quickly a stop is heard.
    private static let chunkBytes = RecordingFormat.bytesPerSecond / 10
    private static let headerBytes = 44

    private let applicationName: String
    private let queue = DispatchQueue(label: "org.notula.playback")
    /// The stop flag of the playback in progress.
    private let flags = Mutex<StopFlag?>(nil)

    public init(applicationName: String = "Notula") {
        self.applicationName = applicationName
    }

    /// Starts playing `file`, stopping what plays now; `ended` is called once, on the playback thread.
    public func play(_ file: String, ended: @escaping @Sendable (PlaybackEnd) -> Void) {
        let stopFlag = StopFlag()
        replaceCurrent(with: stopFlag)
        queue.async { [applicationName] in
            ended(Self.play(file, name: applicationName, until: stopFlag))
        }
    }

    /// Stops the playback in progress, if any, within about 100 ms.
    public func stop() { replaceCurrent(with: nil) }

    private func replaceCurrent(with flag: StopFlag?) {
        flags.withLock { current in
            current?.stopped.store(true, ordering: .relaxed)
            current = flag
        }
    }

    /// Writes the samples of `file` to a new playback stream until its end or until stopped.
    ///
    /// The corresponding C functions are `pa_simple_new`, `pa_simple_write`, `pa_simple_drain`
    /// and `pa_simple_flush`.
    private static func play(_ file: String, name: String, until flag: StopFlag) -> PlaybackEnd {
        let descriptor = open(file, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return .failed("Cannot read \(file): \(String(cString: strerror(errno)))") }
        defer { close(descriptor) }
        guard lseek(descriptor, off_t(headerBytes), SEEK_SET) == off_t(headerBytes) else { return .failed("\(file) is not a WAV file") }
        var format = pa_sample_spec(
            format: PA_SAMPLE_S16LE, rate: UInt32(RecordingFormat.sampleRate), channels: UInt8(RecordingFormat.channels))
        var error: Int32 = 0
        guard let stream = pa_simple_new(nil, name, PA_STREAM_PLAYBACK, nil, "Memo", &format, nil, nil, &error) else {
            return .failed("Cannot play through the sound server (\(PulseError(code: error).message))")
        }
        defer { pa_simple_free(stream) }
        var chunk = [UInt8](repeating: 0, count: chunkBytes)
        while !flag.stopped.load(ordering: .relaxed) {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            guard count > 0 else {
                guard count == 0 else { return .failed("Cannot read \(file): \(String(cString: strerror(errno)))") }
                return pa_simple_drain(stream, &error) == 0 ? .finished : .failed(PulseError(code: error).message)
            }
            let whole = count - count % RecordingFormat.bytesPerSample
            guard chunk.withUnsafeBytes({ pa_simple_write(stream, $0.baseAddress, whole, &error) }) == 0 else {
                return .failed("Lost the sound server while playing (\(PulseError(code: error).message))")
            }
        }
        _ = pa_simple_flush(stream, &error)
        return .stopped
    }
}

/// Set to end one playback.
final class StopFlag: Sendable {
    let stopped = Atomic(false)
}
