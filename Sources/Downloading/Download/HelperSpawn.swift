import Glibc

/// A pipe to or from a child process, both ends closed on exec: only what `posix_spawn` duplicates reaches the child.
public enum ChildPipe {
    /// Makes the pipe into `ends`; false (and errno) when it cannot.
    public static func make(_ ends: inout [Int32]) -> Bool {
        guard pipe(&ends) == 0 else { return false }
        guard ends.allSatisfy({ fcntl($0, F_SETFD, FD_CLOEXEC) == 0 }) else {
            let code = errno
            ends.forEach { close($0) }
            errno = code
            return false
        }
        return true
    }
}

/// notulad run again as a helper of its own (a fetch, a decoding): its standard input and output the descriptors
/// given, its error output this process's (the journal), its signal mask empty.
public enum HelperSpawn {
    /// Starts `executable` with `arguments` (after its own name).
    /// - Parameters:
    ///   - input: what becomes its standard input; /dev/null when nil.
    ///   - environment: `NAME=value` entries; this process's when nil.
    /// - Returns: its process id, or the error number `posix_spawn` gave.
    public static func start(
        _ executable: String, _ arguments: [String], input: Int32?, output: Int32, environment: [String]? = nil
    ) -> Result<pid_t, Errno> {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        if let input {
            posix_spawn_file_actions_adddup2(&actions, input, STDIN_FILENO)
        } else {
            posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0)
        }
        posix_spawn_file_actions_adddup2(&actions, output, STDOUT_FILENO)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK))
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { $0.map { strdup($0) } + [nil] }
        defer { (argv + (envp ?? [])).forEach { free($0) } }
        var child = pid_t()
        let status =
            envp.map { posix_spawn(&child, executable, &actions, &attributes, argv, $0) }
            ?? posix_spawn(&child, executable, &actions, &attributes, argv, environ)
        return status == 0 ? .success(child) : .failure(Errno(status))
    }
}

/// An error number, as `posix_spawn` returns it.
public struct Errno: Error, Sendable {
    public let code: Int32
    init(_ code: Int32) { self.code = code }
    public var message: String { String(cString: strerror(code)) }
}
