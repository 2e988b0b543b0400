import Glibc
import Recording
import Synchronization

/// A helper program started with `posix_spawn` and awaited on a thread of its own. Not Foundation's `Process`: it
/// gives the child one end of a socket and reaps it only when that end closes, which never happens while a child
/// forked off by the program holds it. Every process call of the helpers is here.
final class ChildProcess: Sendable {
    private let processID: pid_t
    private struct State {
        var ended = false
        var killed = false
    }
    private let state = Mutex(State())

    /// Starts `path` with `arguments`, only `environment` but the session bus's address (no tool of these speaks D-Bus;
    /// the display's and the runtime folder's they need), and the three descriptors as its standard input, output and
    /// error; it inherits no other descriptor, no blocked signal and no ignored one.
    /// - Throws: the `errno` of `posix_spawn`.
    init(path: String, arguments: [String], environment: [String: String], input: Int32, output: Int32, errorOutput: Int32)
        throws(Errno)
    {
        let entries = environment.filter { $0.key != "DBUS_SESSION_BUS_ADDRESS" }.map { "\($0.key)=\($0.value)" }
        switch ChildSpawn.start(
            path, arguments, standard: [input, output, errorOutput], environment: entries,
            defaultSignals: [SIGPIPE, SIGINT, SIGTERM, SIGHUP])
        {
        case .success(let processID): self.processID = processID
        case .failure(let error): throw Errno(code: error.code)
        }
    }

    /// The exit status (128 + the signal's number for a program ended by a signal), or nil when `kill()` ended it.
    /// Waits on a thread of its own, so that no cooperative thread is held for as long as the program runs.
    func ended() async -> Int32? {
        await BlockingThread.run(otherwise: waitForExit()) { [self] in waitForExit() }
    }

    /// `ended()`, the program killed once `timeLimit` has passed: nil then.
    func ended(within timeLimit: Duration) async -> Int32? {
        let watchdog = Task {
            guard (try? await Task.sleep(for: timeLimit)) != nil else { return }
            kill()
        }
        defer { watchdog.cancel() }
        return await ended()
    }

    /// Kills the program with SIGKILL, unless it has ended.
    func kill() {
        state.withLock { state in
            guard !state.ended else { return }
            state.killed = true
            Glibc.kill(processID, SIGKILL)
        }
    }

    private func waitForExit() -> Int32? {
        // Seen ended but not reaped first: until it is reaped its ID cannot be reused, so `kill()` can never hit
        // another process.
        ChildSpawn.awaitEnd(processID)
        let killed = state.withLock { state in
            state.ended = true
            return state.killed
        }
        let exit = ChildSpawn.reap(processID)
        return killed ? nil : exit.shellStatus
    }

    /// An `errno` value, said in words by `strerror`.
    struct Errno: Error {
        let code: Int32
        var description: String { String(cString: strerror(code)) }
    }
}
