import Downloading
import Glibc
import Recording

/// The `--voice-helper` child of one recording: its samples written to it, the utterances it ends read back without
/// waiting. Only used on the transcription queue.
final class VoiceHelperProcess {
    let pid: pid_t
    private var input: Int32
    private let output: Int32
    private var pending: [UInt8] = []
    /// Its output has ended: it has nothing more to say.
    private var outputEnded = false
    private var reaped = false

    /// A pipe of 1 MiB: 32 s of samples that the helper may fall behind by (a decoding beside it on both cores) before
    /// a write would wait, which is taken as the helper gone.
    private static let pipeBytes: Int32 = 1 << 20

    /// Starts the helper; nil when it cannot.
    init?(_ detection: VoiceDetection) {
        let arguments = [VoiceHelperServer.argument, detection.library, detection.model, String(detection.silence)]
        guard case .success(let child) = HelperSpawn.startPiped(detection.executable, arguments) else { return nil }
        pid = child.pid
        input = child.input
        output = child.output
        _ = fcntl(input, 1031 /* F_SETPIPE_SZ */, Self.pipeBytes)
        _ = fcntl(input, F_SETFL, fcntl(input, F_GETFL) | O_NONBLOCK)
        _ = fcntl(output, F_SETFL, fcntl(output, F_GETFL) | O_NONBLOCK)
    }

    deinit { end() }

    /// Hands the helper the next samples; the utterances it has ended since, or nil when it is gone or behind.
    func send(_ bytes: [UInt8]) -> [(start: Double, end: Double)]? {
        ChildPipe.write(bytes, to: input) ? readAvailable(waiting: false) : nil
    }

    /// Ends its input and returns the utterances it ends then, waiting up to 2 s; nil when it does not answer.
    func finish() -> [(start: Double, end: Double)]? {
        close(input)
        input = -1
        let until = ContinuousClock.now + .seconds(2)
        var spans: [(start: Double, end: Double)] = []
        while ContinuousClock.now < until {
            guard let more = readAvailable(waiting: true) else { break }
            spans += more
            if outputEnded {
                end()
                return spans
            }
        }
        end()
        return nil
    }

    /// Ends the helper, if it has not ended, and reaps it.
    func end() {
        guard !reaped else { return }
        reaped = true
        if input >= 0 { close(input) }
        input = -1
        // Not yet reaped, its process id is not another's.
        kill(pid, SIGKILL)
        close(output)
        _ = ChildSpawn.reap(pid)
    }

    /// The lines the helper has written, as spans; nil when its output is broken or unreadable.
    private func readAvailable(waiting: Bool) -> [(start: Double, end: Double)]? {
        var buffer = [UInt8](repeating: 0, count: 4_096)
        if waiting {
            var watched = pollfd(fd: output, events: Int16(POLLIN), revents: 0)
            _ = poll(&watched, 1, 100)
        }
        while true {
            let count = buffer.withUnsafeMutableBytes { read(output, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            if count < 0 && errno == EAGAIN { break }
            if count == 0 {
                outputEnded = true
                break
            }
            guard count > 0, pending.count < 1 << 16 else { return nil }
            pending += buffer[..<count]
        }
        var spans: [(start: Double, end: Double)] = []
        while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
            let fields = String(decoding: pending[..<newline], as: UTF8.self).split(separator: " ").compactMap { Double($0) }
            pending.removeSubrange(...newline)
            guard fields.count == 2, fields[0].isFinite, fields[1] >= fields[0] else { return nil }
            spans.append((fields[0], fields[1]))
        }
        return spans
    }
}
