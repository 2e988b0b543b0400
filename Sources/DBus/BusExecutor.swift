import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// One connection's part of the executor's main-loop turn.
struct ConnectionTurn: Sendable {
    /// Dispatches what the connection has queued and says which descriptors to poll and for how long at
    /// most, in milliseconds (-1: no limit).
    let prepare: @Sendable () -> (descriptors: [pollfd], wait: Int32)
    /// Handles what the poll found on the descriptors `prepare` gave, in their order.
    let finish: @Sendable ([pollfd]) -> Void
}

/// The one thread that makes every libdbus call of its connections.
///
/// It runs the jobs of the actors that use it as their executor and, between jobs,
/// one main-loop turn over all its connections (one poll on libdbus's watches). A job enqueued from
/// another thread wakes the poll through a pipe, so an idle loop never wakes by itself. Several connections
/// share it where objects must be exported on connections of their own yet hear each other synchronously.
public final class BusExecutor: SerialExecutor, Sendable {
    private struct Shared {
        var jobs: [UnownedJob] = []
        var turns: [(token: Int, turn: ConnectionTurn)] = []
        var nextTurn = 0
        var running = true
    }

    private let shared = Mutex(Shared())
    /// The read end of a pipe polled by the turn; a byte written to the other end wakes it.
    let wakeDescriptor: Int32
    private let wakeWriter: Int32
    /// The thread's `pthread_self()`, 0 until it runs: read at every callback's isolation check, so an atomic, not a lock.
    private let thread = Atomic<UInt>(0)

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
    }

    public func enqueue(_ job: consuming ExecutorJob) {
        let unowned = UnownedJob(job)
        shared.withLock { $0.jobs.append(unowned) }
        // On the thread itself the loop takes it before it polls again (`turn` does not block while jobs wait).
        if !isCurrentThread { wake() }
    }

    public func asUnownedSerialExecutor() -> UnownedSerialExecutor { UnownedSerialExecutor(ordinary: self) }

    /// Called by the runtime for `assumeIsolated` outside a job: libdbus callbacks run on this thread.
    public func checkIsolated() {
        precondition(isCurrentThread, "not on the bus thread")
    }

    var isCurrentThread: Bool {
        let handle = thread.load(ordering: .relaxed)
        return handle != 0 && pthread_equal(handle, pthread_self()) != 0
    }

    /// Adds a connection to the turn run between jobs; returns the token that removes it.
    func addTurn(_ turn: ConnectionTurn) -> Int {
        defer { wake() }
        return shared.withLock { shared in
            shared.nextTurn += 1
            shared.turns.append((shared.nextTurn, turn))
            return shared.nextTurn
        }
    }

    func removeTurn(_ token: Int) {
        shared.withLock { $0.turns.removeAll { $0.token == token } }
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
        thread.store(pthread_self(), ordering: .relaxed)
        while true {
            let (jobs, turns, running) = shared.withLock { shared in
                let taken = shared.jobs
                shared.jobs.removeAll(keepingCapacity: true)
                return (taken, shared.turns.map(\.turn), shared.running)
            }
            for job in jobs { job.runSynchronously(on: asUnownedSerialExecutor()) }
            guard running else { break }
            turn(turns)
        }
    }

    /// One poll over the wake-up pipe and every connection's descriptors, bounded by the nearest of their limits.
    private func turn(_ turns: [ConnectionTurn]) {
        var descriptors = [pollfd(fd: wakeDescriptor, events: Int16(POLLIN), revents: 0)]
        var ranges: [Range<Int>] = []
        var wait: Int32 = -1
        for turn in turns {
            let (polled, limit) = turn.prepare()
            ranges.append(descriptors.count..<descriptors.count + polled.count)
            descriptors += polled
            if limit >= 0 { wait = wait < 0 ? limit : min(wait, limit) }
        }
        // A job the preparing enqueued on this thread woke nobody: look, not wait.
        if shared.withLock({ !$0.jobs.isEmpty }) { wait = 0 }
        _ = poll(&descriptors, nfds_t(descriptors.count), wait)
        if descriptors[0].revents != 0 { drainWake() }
        for (turn, range) in zip(turns, ranges) { turn.finish(Array(descriptors[range])) }
    }

    // The pipe outlives the thread: a job enqueued after `stop()` must not write to a closed
    // (and perhaps reused) descriptor.
    deinit {
        close(wakeDescriptor)
        close(wakeWriter)
    }
}
