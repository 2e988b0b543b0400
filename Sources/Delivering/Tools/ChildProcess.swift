import Foundation
import Synchronization

/// A helper program started with `posix_spawn` and awaited on a thread of its own. Not Foundation's `Process`: it
/// gives the child one end of a socket and reaps it only when that end closes, which never happens while a child
/// forked off to serve the clipboard (wl-copy, xclip) holds it. Every process call of the helpers is here.
final class ChildProcess: Sendable {
    private let processID: pid_t
    private struct State {
        var ended = false
        var killed = false
    }
    private let state = Mutex(State())

    /// Starts `path` with `arguments`, only `environment`, and the three descriptors as its standard input, output
    /// and error; it inherits no other descriptor, no blocked signal and no ignored one.
    /// - Throws: the `errno` of `posix_spawn`.
    init(path: String, arguments: [String], environment: [String: String], input: Int32, output: Int32, errorOutput: Int32)
        throws(Errno)
    {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, input, 0)
        posix_spawn_file_actions_adddup2(&actions, output, 1)
        posix_spawn_file_actions_adddup2(&actions, errorOutput, 2)
        _ = Self.addCloseFrom?(&actions, 3)

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        var defaultSignals = sigset_t()
        sigemptyset(&defaultSignals)
        for signal in [SIGPIPE, SIGINT, SIGTERM, SIGHUP] { sigaddset(&defaultSignals, signal) }
        posix_spawnattr_setsigdefault(&attributes, &defaultSignals)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var processID: pid_t = 0
        let result = posix_spawn(&processID, path, &actions, &attributes, argv, envp)
        guard result == 0 else { throw Errno(code: result) }
        self.processID = processID
    }

    /// The exit status (128 + the signal's number for a program ended by a signal), or nil when `kill()` ended it.
    /// Waits on a thread of its own, so that no cooperative thread is held for as long as the program runs.
    func ended() async -> Int32? {
        await withCheckedContinuation { (continuation: CheckedContinuation<Int32?, Never>) in
            Thread { [self] in continuation.resume(returning: waitForExit()) }.start()
        }
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
        // Seen exited but not reaped first: until it is reaped its ID cannot be reused, so `kill()` can never hit
        // another process.
        var info = siginfo_t()
        while waitid(P_PID, id_t(processID), &info, WEXITED | WNOWAIT) == -1 && errno == EINTR {}
        let killed = state.withLock { state in
            state.ended = true
            return state.killed
        }
        var status: Int32 = 0
        while waitpid(processID, &status, 0) == -1 && errno == EINTR {}
        guard !killed else { return nil }
        let signal = status & 0x7f
        return signal == 0 ? (status >> 8) & 0xff : 128 + signal
    }

    /// glibc's `posix_spawn_file_actions_addclosefrom_np` (2.34 and later), which Swift's Glibc module does not
    /// declare: without it, descriptors opened without close-on-exec elsewhere in notulad would live on in the
    /// children that serve the clipboard.
    private static let addCloseFrom = dlsym(nil, "posix_spawn_file_actions_addclosefrom_np").map {
        unsafeBitCast($0, to: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32).self)
    }

    /// An `errno` value, said in words by `strerror`.
    struct Errno: Error {
        let code: Int32
        var description: String { String(cString: strerror(code)) }
    }
}
