import DBus
import Glibc

/// The pipes through which the Clipboard portal hands over the selection's bytes: the window that pastes reads
/// what notulad writes, and notulad reads what another window put there. Each is written or read to its end on a
/// thread of its own (a slow peer must hold no cooperative thread) within a bound, then closed: the reader sees the
/// end of the text only once every copy of the descriptor is closed.
enum SelectionPipe {
    /// Writes all of `bytes` to a copy of `descriptor`'s file, then closes that copy.
    /// - Returns: whether all was written within `bound`.
    static func write(_ bytes: [UInt8], to descriptor: FileDescriptor, within bound: Duration) async -> Bool {
        await withCheckedContinuation { written in
            startWriting(bytes, to: descriptor, within: bound) { written.resume(returning: $0) }
        }
    }

    /// `write(_:to:within:)` started at once from the caller's thread, which need not be a cooperative one: a
    /// compositor's `send` is answered even while every cooperative thread is busy. `then` is told whether all was
    /// written, on the writing thread.
    static func startWriting(
        _ bytes: [UInt8], to descriptor: FileDescriptor, within bound: Duration, then: @escaping @Sendable (Bool) -> Void
    ) {
        let file = fcntl(descriptor.rawValue, F_DUPFD_CLOEXEC, 0)
        guard file >= 0 else { return then(false) }
        BlockingThread.start({ then(writeAll(bytes, to: file, within: bound)) }, otherwise: { then(closing(file, false)) })
    }

    /// Writes `bytes` to `file` within `bound` and closes it, on the calling thread.
    private static func writeAll(_ bytes: [UInt8], to file: Int32, within bound: Duration) -> Bool {
        defer { close(file) }
        // A reader gone makes the write fail with EPIPE rather than kill notulad: the SIGPIPE is this thread's,
        // blocked, and goes with the thread.
        var pipeSignal = sigset_t()
        sigemptyset(&pipeSignal)
        sigaddset(&pipeSignal, SIGPIPE)
        pthread_sigmask(SIG_BLOCK, &pipeSignal, nil)
        let deadline = ContinuousClock.now + bound
        var written = 0
        while written < bytes.count {
            let count = bytes[written...].withUnsafeBytes { Glibc.write(file, $0.baseAddress, $0.count) }
            if count > 0 {
                written += count
            } else if count < 0 && errno == EINTR {
                continue
            } else if count < 0 && errno == EAGAIN, waitUntilReady(file, for: Int16(POLLOUT), before: deadline) {
                continue
            } else {
                return false
            }
        }
        return true
    }

    /// Reads a copy of `descriptor`'s file to its end, then closes that copy.
    /// - Returns: the bytes, or nil when the end did not come within `bound`, or past `limit` bytes.
    static func read(_ descriptor: FileDescriptor, limit: Int, within bound: Duration) async -> [UInt8]? {
        let file = fcntl(descriptor.rawValue, F_DUPFD_CLOEXEC, 0)
        guard file >= 0 else { return nil }
        return await BlockingThread.run(otherwise: closing(file, nil)) {
            defer { close(file) }
            let deadline = ContinuousClock.now + bound
            var bytes: [UInt8] = []
            var chunk = [UInt8](repeating: 0, count: 16 * 1024)
            while bytes.count <= limit {
                guard waitUntilReady(file, for: Int16(POLLIN), before: deadline) else { return nil }
                let count = chunk.withUnsafeMutableBytes { Glibc.read(file, $0.baseAddress, $0.count) }
                if count == 0 { return bytes }
                if count > 0 {
                    bytes += chunk[..<count]
                } else if errno != EINTR && errno != EAGAIN {
                    return nil
                }
            }
            return nil
        }
    }

    /// Whether `file` became ready for `events` (or hung up, which the next call reports) before `deadline`.
    private static func waitUntilReady(_ file: Int32, for events: Int16, before deadline: ContinuousClock.Instant) -> Bool {
        while true {
            let left = deadline - ContinuousClock.now
            guard left > .zero else { return false }
            var entry = pollfd(fd: file, events: events, revents: 0)
            let milliseconds = left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000 + 1
            let ready = poll(&entry, 1, Int32(min(milliseconds, Int64(Int32.max))))
            if ready > 0 { return true }
            if ready < 0 && errno != EINTR { return false }
        }
    }

    /// `answer`, once `file` is closed: where no thread could be started to use it.
    private static func closing<Answer>(_ file: Int32, _ answer: Answer) -> Answer {
        close(file)
        return answer
    }
}
