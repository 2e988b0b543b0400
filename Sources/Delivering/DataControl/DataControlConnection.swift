import Glibc
import Synchronization

/// One connection to the compositor for the data-control protocol, owned by a thread of its own that alone touches
/// the display: callers hand it work (`perform`) and are answered through continuations, so that no cooperative
/// thread, and not the bus's, ever waits on the compositor. Ends, answering all it owes, when the connection fails.
final class DataControlConnection: Sendable {
    /// The work queued for the thread, and whether the connection is over.
    private struct Queue {
        var work: [@Sendable (DataControlState?) -> Void] = []
        var over = false
    }
    private let queue = Mutex(Queue())
    /// A pipe whose write end wakes the thread from its poll.
    private let wakeReader: Int32
    private let wakeWriter: Int32

    /// Starts the thread, which connects to the socket at `path`; a connection that fails, or finds no pipe to be
    /// woken by, is over at once.
    init(socket path: String) {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else {
            (wakeReader, wakeWriter) = (-1, -1)
            queue.withLock { $0.over = true }
            return
        }
        for end in ends {
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
            _ = fcntl(end, F_SETFL, O_NONBLOCK)
        }
        (wakeReader, wakeWriter) = (ends[0], ends[1])
        BlockingThread.start(
            { [self] in
                guard let display = WaylandCalls.connect(path), let state = DataControlState(display: display) else {
                    return finish(nil)
                }
                run(state)
                finish(state)
            }, otherwise: { finish(nil) })
    }

    deinit {
        if wakeReader >= 0 { close(wakeReader) }
        if wakeWriter >= 0 { close(wakeWriter) }
    }

    /// Whether the connection has failed (or the compositor ended it).
    var isOver: Bool { queue.withLock { $0.over } }

    /// Runs `work` on the connection's thread; it gets an answer to give once, and `fallback` is the answer where it
    /// gives none within `timeLimit` or the connection is over first.
    func perform<Answer: Sendable>(
        within timeLimit: Duration, fallback: Answer,
        _ work: @escaping @Sendable (DataControlState, _ answer: @escaping @Sendable (Answer) -> Void) -> Void
    ) async -> Answer {
        let pending = OneAnswer<Answer>()
        let answer: @Sendable (Answer) -> Void = { pending.give($0) }
        let timer = Task {
            try? await Task.sleep(for: timeLimit)
            answer(fallback)
        }
        defer { timer.cancel() }
        return await withCheckedContinuation { continuation in
            pending.await(continuation)
            let queued = enqueue { state in
                guard let state, !state.isOver else { return answer(fallback) }
                work(state, answer)
            }
            if !queued { answer(fallback) }
        }
    }

    /// Queues `work` for the thread and wakes it; false where the connection is over.
    private func enqueue(_ work: @escaping @Sendable (DataControlState?) -> Void) -> Bool {
        let queued = queue.withLock { queue in
            guard !queue.over else { return false }
            queue.work.append(work)
            return true
        }
        if queued { wake() }
        return queued
    }

    private func wake() {
        var byte: UInt8 = 1
        _ = write(wakeWriter, &byte, 1)
    }

    /// The thread's loop: runs the queued work, sends the requests, waits for events or work, dispatches the events;
    /// returns once the connection fails.
    private func run(_ state: DataControlState) {
        let display = state.display
        let socket = WaylandCalls.descriptor(display)
        var unsent = false
        while !state.isOver {
            for work in queue.withLock({ queue in defer { queue.work = [] }; return queue.work }) { work(state) }
            guard WaylandCalls.prepareRead(display) else { break }
            do throws(ChildProcess.Errno) { unsent = try !WaylandCalls.flush(display) } catch {
                WaylandCalls.cancelRead(display)
                break
            }
            var watched = [
                pollfd(fd: socket, events: Int16(POLLIN) | (unsent ? Int16(POLLOUT) : 0), revents: 0),
                pollfd(fd: wakeReader, events: Int16(POLLIN), revents: 0),
            ]
            let ready = poll(&watched, 2, -1)
            guard ready > 0 || (ready < 0 && errno == EINTR) else {
                WaylandCalls.cancelRead(display)
                break
            }
            if watched[0].revents & Int16(POLLIN) != 0 {
                guard WaylandCalls.readEvents(display) else { break }
            } else {
                WaylandCalls.cancelRead(display)
                guard watched[0].revents & Int16(POLLERR | POLLHUP) == 0 else { break }
            }
            var drained = [UInt8](repeating: 0, count: 64)
            while read(wakeReader, &drained, drained.count) > 0 {}
            guard WaylandCalls.dispatchPending(display) else { break }
        }
    }

    /// Marks the connection over and answers the work left with its fallback.
    private func finish(_ state: DataControlState?) {
        let left = queue.withLock { queue in
            queue.over = true
            defer { queue.work = [] }
            return queue.work
        }
        state?.end()
        for work in left { work(state) }
    }
}

/// The answer of one piece of work: given once, by the work or by its time running out, whichever comes first
/// (possibly before the caller waits for it).
private final class OneAnswer<Answer: Sendable>: Sendable {
    private enum Stage {
        case idle
        case waiting(CheckedContinuation<Answer, Never>)
        case given(Answer)
        case done
    }
    private let stage = Mutex(Stage.idle)

    func await(_ waiting: CheckedContinuation<Answer, Never>) {
        let given: Answer? = stage.withLock { stage in
            guard case .given(let answer) = stage else {
                stage = .waiting(waiting)
                return nil
            }
            stage = .done
            return answer
        }
        if let given { waiting.resume(returning: given) }
    }

    func give(_ answer: Answer) {
        let waiting: CheckedContinuation<Answer, Never>? = stage.withLock { stage in
            switch stage {
            case .idle:
                stage = .given(answer)
                return nil
            case .waiting(let waiting):
                stage = .done
                return waiting
            case .given, .done: return nil
            }
        }
        waiting?.resume(returning: answer)
    }
}
