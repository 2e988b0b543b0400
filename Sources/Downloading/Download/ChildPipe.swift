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
