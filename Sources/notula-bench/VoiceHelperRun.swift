import Foundation
import Glibc
import Speech

/// `notulad --voice-helper` run to the end of some samples: the utterances it ends and the CPU it took.
struct VoiceHelperRun {
    let notulad: String
    let library: String
    let model: String

    func run(on bytes: [UInt8]) throws -> (spans: [(start: Double, end: Double)], cpu: Double) {
        let input = FileManager.default.temporaryDirectory.appendingPathComponent("notula-bench-\(UUID().uuidString).raw").path
        defer { try? FileManager.default.removeItem(atPath: input) }
        try Data(bytes).write(to: URL(fileURLWithPath: input))
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, input, O_RDONLY, 0)
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { throw SpawnFailed(message: "no pipe for the voice helper") }
        posix_spawn_file_actions_adddup2(&actions, ends[1], 1)
        posix_spawn_file_actions_addclose(&actions, ends[0])
        let arguments: [String] = [notulad, VoiceHelperServer.argument, library, model]
        let argv = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, notulad, &actions, nil, argv, environ)
        close(ends[1])
        guard spawned == 0 else {
            close(ends[0])
            throw SpawnFailed(message: "the voice helper could not be started: \(String(cString: strerror(spawned)))")
        }
        let text = String(decoding: FileHandle(fileDescriptor: ends[0], closeOnDealloc: true).readDataToEndOfFile(), as: UTF8.self)
        var status: Int32 = 0
        var usage = rusage()
        _ = wait4(pid, &status, 0, &usage)
        guard status == 0 else { throw SpawnFailed(message: "the voice helper ended with status \(status)") }
        let cpu = [usage.ru_utime, usage.ru_stime].reduce(0.0) { $0 + Double($1.tv_sec) + Double($1.tv_usec) / 1e6 }
        let spans = text.split(separator: "\n").compactMap { line -> (start: Double, end: Double)? in
            let fields = line.split(separator: " ").compactMap { Double($0) }
            return fields.count == 2 ? (fields[0], fields[1]) : nil
        }
        return (spans, cpu)
    }
}
