import Glibc

/// `pipe2` of <unistd.h>, which the Glibc module leaves out (it is a GNU extension).
@_silgen_name("pipe2") private func pipe2(_ descriptors: UnsafeMutablePointer<Int32>, _ flags: Int32) -> Int32

/// A pipe to or from a child process, both ends closed on exec: only what `ChildSpawn` hands over reaches the child.
public enum ChildPipe {
    /// Makes the pipe into `ends`, close-on-exec from the first instant (a `pipe` then `fcntl` left a moment in which
    /// a child another thread started inherited both ends); false (and errno) when it cannot.
    public static func make(_ ends: inout [Int32]) -> Bool {
        pipe2(&ends, O_CLOEXEC) == 0
    }

    /// Writes all of `bytes` to `descriptor`; false when it cannot (the other end closed, or a non-blocking pipe full).
    public static func write(_ bytes: [UInt8], to descriptor: Int32) -> Bool {
        var written = 0
        while written < bytes.count {
            let result = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress! + written, bytes.count - written) }
            if result < 0 && errno == EINTR { continue }
            guard result > 0 else { return false }
            written += result
        }
        return true
    }
}

/// The one way notulad starts another program — its own helpers, the typing tools, `xdg-open`: `posix_spawn` with the
/// descriptors given as the child's standard input, output and error and no other (every descriptor from 3 on closed,
/// whatever a library opened without close-on-exec), an empty signal mask, and only the environment given.
public enum ChildSpawn {
    /// Starts `program` with `arguments` (after its own name).
    /// - Parameters:
    ///   - standard: the child's descriptors 0, 1 and 2, from ours; nil opens /dev/null there.
    ///   - environment: `NAME=value` entries, the child's whole environment.
    ///   - defaultSignals: signals set back to their default action (notulad ignores SIGPIPE).
    ///   - searchingPath: `program` is a name looked up in `PATH`, not a path.
    /// - Returns: the child's process id, or the error number `posix_spawn` gave.
    /// The corresponding C functions are `posix_spawn` and `posix_spawnp`.
    public static func start(
        _ program: String, _ arguments: [String], standard: [Int32?], environment: [String], defaultSignals: [Int32] = [],
        searchingPath: Bool = false
    ) -> Result<pid_t, SpawnError> {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for (target, source) in standard.prefix(3).enumerated() {
            if let source {
                posix_spawn_file_actions_adddup2(&actions, source, Int32(target))
            } else {
                posix_spawn_file_actions_addopen(&actions, Int32(target), "/dev/null", O_RDWR, 0)
            }
        }
        _ = addCloseFrom?(&actions, 3)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in defaultSignals { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        let argv = ([program] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup($0) } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var child = pid_t()
        var status = ETXTBSY
        // A program written a moment ago is busy while any copy of its writer's descriptor is open, and another
        // thread's child holds one from its fork to its exec (or its end, without close-on-exec): that passes.
        for attempt in 0...Self.busyRetries where status == ETXTBSY {
            if attempt > 0 { usleep(Self.busyPause) }
            status =
                searchingPath
                ? posix_spawnp(&child, program, &actions, &attributes, argv, envp)
                : posix_spawn(&child, program, &actions, &attributes, argv, envp)
        }
        return status == 0 ? .success(child) : .failure(SpawnError(code: status))
    }

    /// How often, and after how many microseconds each time, a busy program (`ETXTBSY`) is tried again: half a second
    /// in all.
    static let busyRetries = 50
    static let busyPause: UInt32 = 10_000

    /// Waits until the child `process` ends and reaps it, through interrupted waits.
    /// The corresponding C function is `waitpid`.
    public static func reap(_ process: pid_t) -> ChildExit {
        var status: Int32 = 0
        while waitpid(process, &status, 0) < 0 && errno == EINTR {}
        let signal = status & 0x7f
        return signal == 0 ? .exited((status >> 8) & 0xff) : .signalled(signal)
    }

    /// Returns once the child `process` has ended, leaving it unreaped: until `reap`, its id cannot be reused, so a
    /// `kill` meanwhile never reaches another process.
    /// The corresponding C function is `waitid` with `WNOWAIT`.
    public static func awaitEnd(_ process: pid_t) {
        var info = siginfo_t()
        while waitid(P_PID, id_t(process), &info, WEXITED | WNOWAIT) < 0 && errno == EINTR {}
    }

    /// Whether the child `process` has ended (or is not ours), without waiting and leaving it unreaped.
    /// The corresponding C function is `waitid` with `WNOHANG | WNOWAIT`.
    public static func hasEnded(_ process: pid_t) -> Bool {
        var info = siginfo_t()
        guard waitid(P_PID, id_t(process), &info, WEXITED | WNOHANG | WNOWAIT) == 0 else { return errno == ECHILD }
        return info._sifields._kill.si_pid == process
    }

    /// Starts `program` as `start` does and leaves it running: a thread of its own reaps it when it ends.
    /// - Returns: its process id, or the error number `posix_spawn` gave.
    public static func launch(
        _ program: String, _ arguments: [String], standard: [Int32?], environment: [String], defaultSignals: [Int32] = [],
        searchingPath: Bool = false
    ) -> Result<pid_t, SpawnError> {
        let started = start(
            program, arguments, standard: standard, environment: environment, defaultSignals: defaultSignals,
            searchingPath: searchingPath)
        if case .success(let child) = started { Reaper.reapWhenEnded(child) }
        return started
    }

    /// This process's environment as `NAME=value` entries, only those whose name `keeps` accepts.
    public static func ownEnvironment(keeping keeps: (Substring) -> Bool = { _ in true }) -> [String] {
        var entries: [String] = []
        var entry = environ
        while let pointer = entry.pointee {
            let text = String(cString: pointer)
            if let equals = text.firstIndex(of: "="), keeps(text[..<equals]) { entries.append(text) }
            entry += 1
        }
        return entries
    }

    /// Caps this process's address space at `bytes` (the soft limit, at most the hard one, which is left as it was):
    /// called by a helper of notulad's first thing, so that a runaway allocation (a damaged model, a library's bug)
    /// fails there and not in the desktop.
    /// The corresponding C functions are `getrlimit` and `setrlimit`.
    public static func limitAddressSpace(to bytes: Int) {
        let resource = __rlimit_resource_t(RLIMIT_AS.rawValue)
        var limit = rlimit()
        guard getrlimit(resource, &limit) == 0 else { return }
        limit.rlim_cur = min(rlim_t(max(0, bytes)), limit.rlim_max)
        _ = setrlimit(resource, &limit)
    }

    /// glibc's `posix_spawn_file_actions_addclosefrom_np` (2.34 and later), which Swift's Glibc module does not declare.
    private static let addCloseFrom = dlsym(nil, "posix_spawn_file_actions_addclosefrom_np").map {
        unsafeBitCast($0, to: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32).self)
    }
}

/// How a child process ended: its exit status, or the signal that ended it.
public enum ChildExit: Sendable, Equatable {
    case exited(Int32)
    case signalled(Int32)

    /// As a shell reports it: the exit status, or 128 and the signal's number.
    public var shellStatus: Int32 {
        switch self {
        case .exited(let status): status
        case .signalled(let signal): 128 + signal
        }
    }
}

/// Reaps launched children, each on a detached thread of its own: none stays a zombie, no caller waits, and no
/// shared queue's thread is held for as long as an editor `xdg-open` started stays open.
private enum Reaper {
    static func reapWhenEnded(_ child: pid_t) {
        var thread = pthread_t()
        // The process id travels as the argument's bits.
        let created = pthread_create(
            &thread, nil,
            { argument in
                _ = ChildSpawn.reap(pid_t(truncatingIfNeeded: Int(bitPattern: argument)))
                return nil
            }, UnsafeMutableRawPointer(bitPattern: Int(child)))
        if created == 0 { pthread_detach(thread) } else { Log.warning("Cannot wait for process \(child): error \(created)") }
    }
}

/// A child whose standard input and output are pipes of its parent's: the parent's ends.
public struct PipedChild: Sendable {
    public let pid: pid_t
    /// The write end of the child's standard input.
    public let input: Int32
    /// The read end of its standard output.
    public let output: Int32
}

extension ChildSpawn {
    /// `start` with the child's standard input and output on pipes, its error output this process's; the child's ends
    /// are closed here, and every descriptor made when it cannot start.
    /// - Returns: the parent's ends, or the error number of the pipe or the spawn that failed.
    public static func startPiped(_ program: String, _ arguments: [String], environment: [String]) -> Result<PipedChild, SpawnError> {
        var input: [Int32] = [-1, -1]
        var output: [Int32] = [-1, -1]
        guard ChildPipe.make(&input) else { return .failure(SpawnError(code: errno)) }
        guard ChildPipe.make(&output) else {
            let code = errno
            input.forEach { close($0) }
            return .failure(SpawnError(code: code))
        }
        let started = start(program, arguments, standard: [input[0], output[1], STDERR_FILENO], environment: environment)
        close(input[0])
        close(output[1])
        switch started {
        case .success(let pid):
            return .success(PipedChild(pid: pid, input: input[1], output: output[0]))
        case .failure(let error):
            close(input[1])
            close(output[0])
            return .failure(error)
        }
    }
}

/// An error number, as `posix_spawn` returns it.
public struct SpawnError: Error, Sendable, Equatable {
    public let code: Int32
    public var message: String { String(cString: strerror(code)) }
}
