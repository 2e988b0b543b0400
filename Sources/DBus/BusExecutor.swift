import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// The one thread that makes every libdbus call of a connection.
///
/// It runs the jobs of the actors that use it as their executor and, between jobs,
/// the connection's main-loop turn (poll on libdbus's watches). A job enqueued from
/// another thread wakes the poll through a pipe, so an idle loop never wakes by itself.
public final class BusExecutor: SerialExecutor, Sendable {
    private struct Shared {
        var jobs: [UnownedJob] = []
        var turn: (@Sendable () -> Void)?
        var running = true
    }

    private let shared = Mutex(Shared())
    /// The read end of a pipe polled by the turn; a byte written to the other end wakes it.
    let wakeDescriptor: Int32
    private let wakeWriter: Int32
    private let thread = Mutex<pthread_t?>(nil)

    public init() {
        var ends: [Int32] = [-1, -1]
        precondition(pipe(&ends) == 0, "cannot make the bus thread's wake-up pipe")
        for end in ends {
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
            _ = fcntl(end, F_SETFL, O_NONBLOCK)
        }
        wakeDescriptor = ends[0]
        wakeWriter = ends[1]
        let box = Unmanaged.passRetained(self).toOpaque()
        var handle = pthread_t()
        let created = pthread_create(
            &handle, nil,
            { argument in
                let executor = Unmanaged<BusExecutor>.fromOpaque(argument!).takeRetainedValue()
                executor.runLoop()
                return nil
            }, box)
        precondition(created == 0, "cannot start the bus thread")
        pthread_detach(handle)
        thread.withLock { $0 = handle }
    }

    public func enqueue(_ job: consuming ExecutorJob) {
        let unowned = UnownedJob(job)
        shared.withLock { $0.jobs.append(unowned) }
        wake()
    }

    public func asUnownedSerialExecutor() -> UnownedSerialExecutor { UnownedSerialExecutor(ordinary: self) }

    /// Called by the runtime for `assumeIsolated` outside a job: libdbus callbacks run on this thread.
    public func checkIsolated() {
        precondition(isCurrentThread, "not on the bus thread")
    }

    var isCurrentThread: Bool {
        guard let handle = thread.withLock({ $0 }) else { return false }
        return pthread_equal(handle, pthread_self()) != 0
    }

    /// Sets the main-loop turn run between jobs; it must return after one poll.
    func setTurn(_ turn: (@Sendable () -> Void)?) {
        shared.withLock { $0.turn = turn }
        wake()
    }

    /// Ends the thread after the jobs already queued.
    func stop() {
        shared.withLock { $0.running = false }
        wake()
    }

    func wake() {
        var byte: UInt8 = 1
        _ = write(wakeWriter, &byte, 1)
    }

    /// Consumes the wake-ups; called by whoever polled the pipe.
    func drainWake() {
        var bytes = [UInt8](repeating: 0, count: 256)
        while read(wakeDescriptor, &bytes, bytes.count) > 0 {}
    }

    private func runLoop() {
        while true {
            let (jobs, turn, running) = shared.withLock { shared in
                let taken = shared.jobs
                shared.jobs.removeAll(keepingCapacity: true)
                return (taken, shared.turn, shared.running)
            }
            for job in jobs { job.runSynchronously(on: asUnownedSerialExecutor()) }
            guard running else { break }
            if let turn {
                turn()
            } else {
                var descriptor = pollfd(fd: wakeDescriptor, events: Int16(POLLIN), revents: 0)
                _ = poll(&descriptor, 1, -1)
                drainWake()
            }
        }
    }

    // The pipe outlives the thread: a job enqueued after `stop()` must not write to a closed
    // (and perhaps reused) descriptor.
    deinit {
        close(wakeDescriptor)
        close(wakeWriter)
    }
}
