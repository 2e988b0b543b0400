import CPulse
import Dispatch
import Glibc
import Recording
import Synchronization

/// Plays Notula's WAV recordings (16 kHz mono s16le) through a PulseAudio playback stream, one
/// file at a time, to the default sink (or `$PULSE_SINK`).
///
/// Uses libpulse's simple API on a thread of its own: playback is a blocking stream of writes,
/// unlike the capture, whose pauses and level readings need the threaded main loop. Every libpulse
/// call of playback is in this file.
public final class PulsePlayback: SoundPlaying {
    /// A chunk of 100 ms: how quickly a stop is heard.
    private static let chunkBytes = RecordingFormat.bytesPerSecond / 10
    private static let headerBytes = 44

    private let applicationName: String
    private let queue = DispatchQueue(label: "org.notula.playback")
    /// The controls of the playback in progress.
    private let current = Mutex<PlaybackControl?>(nil)

    public init(applicationName: String = "Notula") {
        self.applicationName = applicationName
    }

    /// Starts playing `file`, stopping what plays now; `ended` is called once, on the playback thread.
    public func play(_ file: String, ended: @escaping @Sendable (PlaybackEnd) -> Void) {
        let control = PlaybackControl()
        replaceCurrent(with: control)
        queue.async { [applicationName] in
            ended(Self.play(file, name: applicationName, control: control))
        }
    }

    /// Stops the playback in progress, if any, within about 100 ms.
    public func stop() { replaceCurrent(with: nil) }

    /// Holds the playback in progress and returns once the sound server has dropped what it had not played: the
    /// speakers are silent and `position` is where they stopped. Not held in `limit`, it goes on.
    public func hold(within limit: Duration) async -> PlaybackHold {
        guard let control = current.withLock({ $0 }) else { return .ended }
        control.paused.store(true, ordering: .relaxed)
        let answer = await control.untilHeld(within: limit)
        if answer == .timedOut { control.paused.store(false, ordering: .relaxed) }
        return answer
    }

    /// Lets the playback in progress go on from where it was held.
    public func resume() {
        current.withLock { control in
            control?.paused.store(false, ordering: .relaxed)
            control?.answerHolds(.letGo)
        }
    }

    /// Goes on from `seconds` into the recording (past its end: the end).
    public func seek(to seconds: Double) {
        // A WAV file holds 4 GiB at most: any number of seconds a peer sends past that is its end, not a trap.
        let bytes = min(max(0, seconds) * Double(RecordingFormat.bytesPerSecond), Double(UInt32.max))
        let byte = Int64(bytes) / Int64(RecordingFormat.bytesPerSample)
        current.withLock { $0?.seekTo.store(byte * Int64(RecordingFormat.bytesPerSample), ordering: .relaxed) }
    }

    /// Seconds of the recording the speakers have played, or the ones a seek asked for until the playback takes
    /// them (so that a seek reads back at once); 0 with nothing playing.
    public var position: Double {
        let bytes: Int64 = current.withLock { control in
            guard let control else { return 0 }
            let asked = control.seekTo.load(ordering: .relaxed)
            return asked >= 0 ? asked : control.played.load(ordering: .relaxed)
        }
        return Double(bytes) / Double(RecordingFormat.bytesPerSecond)
    }

    private func replaceCurrent(with control: PlaybackControl?) {
        current.withLock { current in
            current?.stopped.store(true, ordering: .relaxed)
            current = control
        }
    }

    /// Writes the samples of `file` to a new playback stream until its end or until stopped, holding while paused
    /// and going on from where a seek says.
    ///
    /// The corresponding C functions are `pa_simple_new`, `pa_simple_write`, `pa_simple_drain`, `pa_simple_flush`
    /// and `pa_simple_get_latency`.
    private static func play(_ file: String, name: String, control: PlaybackControl) -> PlaybackEnd {
        defer { control.end() }
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
        /// Bytes of samples the server holds that the speakers have not played yet.
        func unplayed() -> Int64 {
            let microseconds = pa_simple_get_latency(stream, &error)
            let bytes = Int64(microseconds) * Int64(RecordingFormat.bytesPerSecond) / 1_000_000
            return bytes - bytes % Int64(RecordingFormat.bytesPerSample)
        }
        /// Where the next read starts, in bytes of samples.
        var written: Int64 = 0
        func goOn(from byte: Int64) -> Bool {
            _ = pa_simple_flush(stream, &error)
            written = max(0, byte)
            control.played.store(written, ordering: .relaxed)
            return lseek(descriptor, off_t(Int64(headerBytes) + written), SEEK_SET) >= 0
        }
        var chunk = [UInt8](repeating: 0, count: chunkBytes)
        while !control.stopped.load(ordering: .relaxed) {
            let target = control.seekTo.load(ordering: .relaxed)
            if target >= 0 {
                guard goOn(from: target) else { return .failed("Cannot seek in \(file)") }
                // Taken only once `played` holds it, so `position` never reads the place before the seek; a newer one stays.
                _ = control.seekTo.compareExchange(expected: target, desired: -1, ordering: .relaxed)
            }
            if control.paused.load(ordering: .relaxed) {
                // What the server held is played again at the resume: the speakers stopped where the user heard them stop.
                // A seek just taken has flushed it already: the latency still reported then is no audio to give back.
                if target < 0, !goOn(from: written - unplayed()) { return .failed("Cannot seek in \(file)") }
                control.answerHolds(.held)
                while control.paused.load(ordering: .relaxed), !control.stopped.load(ordering: .relaxed),
                    control.seekTo.load(ordering: .relaxed) < 0
                {
                    control.answerHolds(.held)  // a hold asked again while held
                    usleep(20_000)
                }
                continue
            }
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            guard count > 0 else {
                guard count == 0 else { return .failed("Cannot read \(file): \(String(cString: strerror(errno)))") }
                return pa_simple_drain(stream, &error) == 0 ? .finished : .failed(PulseError(code: error).message)
            }
            let whole = count - count % RecordingFormat.bytesPerSample
            guard chunk.withUnsafeBytes({ pa_simple_write(stream, $0.baseAddress, whole, &error) }) == 0 else {
                return .failed("Lost the sound server while playing (\(PulseError(code: error).message))")
            }
            written += Int64(whole)
            control.played.store(max(0, written - unplayed()), ordering: .relaxed)
        }
        _ = pa_simple_flush(stream, &error)
        return .stopped
    }
}

/// What the service asks of one playback, and how far it has played: set from any thread, read by the playback's.
final class PlaybackControl: Sendable {
    let stopped = Atomic(false)
    let paused = Atomic(false)
    /// The byte of the samples to go on from, or −1.
    let seekTo = Atomic<Int64>(-1)
    /// Bytes of samples the speakers have played.
    let played = Atomic<Int64>(0)
    /// The callers of `hold(within:)` waiting for the playback's thread to hold, by a number of their own.
    private let holds = Mutex<(next: Int, waiting: [Int: CheckedContinuation<PlaybackHold, Never>])>((0, [:]))

    /// Set by the playback's thread as it returns: nobody will answer a hold then.
    private let ended = Atomic(false)

    /// Waits until the playback's thread answers the hold, or `limit` passes.
    func untilHeld(within limit: Duration) async -> PlaybackHold {
        await withCheckedContinuation { continuation in
            let ticket = holds.withLock { holds in
                holds.next += 1
                holds.waiting[holds.next] = continuation
                return holds.next
            }
            // Set before the thread's last answer: either that answer finds this caller, or this caller sees it set.
            if ended.load(ordering: .sequentiallyConsistent) { answerHolds(.ended) }
            let nanoseconds = limit.components.seconds * 1_000_000_000 + limit.components.attoseconds / 1_000_000_000
            DispatchQueue.global().asyncAfter(deadline: .now() + .nanoseconds(Int(nanoseconds))) { [self] in
                holds.withLock { $0.waiting.removeValue(forKey: ticket) }?.resume(returning: .timedOut)
            }
        }
    }

    /// The playback's thread returns: the holds still waiting are not held.
    func end() {
        ended.store(true, ordering: .sequentiallyConsistent)
        answerHolds(.ended)
    }

    /// Answers every caller waiting for the hold.
    func answerHolds(_ answer: PlaybackHold) {
        let waiting = holds.withLock { holds in
            defer { holds.waiting.removeAll() }
            return Array(holds.waiting.values)
        }
        for continuation in waiting { continuation.resume(returning: answer) }
    }
}
