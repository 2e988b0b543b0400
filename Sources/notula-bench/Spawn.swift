import Foundation

/// Starts `command` as a shell would, `posix_spawn` and no more: Foundation's `Process` spends tens of milliseconds of
/// its own on a start, and spins waiting for a child off the main thread. Standard error is discarded, standard output
/// goes to `output` (discarded when nil).
/// - Returns: its process ID, for `waitpid`.
func spawn(_ command: [String], environment: [String: String], output: Int32? = nil) throws -> pid_t {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    if let output {
        posix_spawn_file_actions_adddup2(&actions, output, 1)
    } else {
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    }
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
    let argv = command.map { strdup($0) } + [nil]
    let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer { (argv + envp).forEach { free($0) } }
    var processID: pid_t = 0
    let result = posix_spawn(&processID, command[0], &actions, nil, argv, envp)
    guard result == 0 else { throw SpawnFailed(message: "\(command[0]) could not be started: \(String(cString: strerror(result)))") }
    return processID
}

/// Starts `command` with its standard output on a pipe.
/// - Returns: its process ID and the pipe's read end, which the caller closes.
func spawnReading(_ command: [String], environment: [String: String]) throws -> (pid_t, Int32) {
    var ends: [Int32] = [-1, -1]
    guard pipe(&ends) == 0 else { throw SpawnFailed(message: "no pipe for \(command[0]): \(String(cString: strerror(errno)))") }
    // Close-on-exec, so that the child holds only its standard output (dup2 clears the flag there).
    for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
    defer { close(ends[1]) }
    do {
        return (try spawn(command, environment: environment, output: ends[1]), ends[0])
    } catch {
        close(ends[0])
        throw error
    }
}

struct SpawnFailed: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}
