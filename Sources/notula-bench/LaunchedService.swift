import DBus
import Foundation
import NotulaContract
import NotulaTestSupport

/// A `notulad` the bench started on its session bus (the one `scripts/private-session` made), with XDG folders of
/// its own in `home` and its log in a file, so that a part of the bench can wait for what it reports nowhere else.
///
/// One at a time: a second `notulad` would find the bus name taken and exit. `stop()` returns once the name is free.
final class LaunchedService {
    /// Valid once `start` has returned: a Process has no identifier before it runs (and `kill(0, …)` would signal
    /// the bench's whole process group).
    var pid: pid_t { process.processIdentifier }
    private let process: Process
    let bus: Bus
    private let logFile: URL

    private init(process: Process, bus: Bus, logFile: URL) {
        self.process = process
        self.bus = bus
        self.logFile = logFile
    }

    /// Starts `executable` and returns once it owns its bus name.
    /// - Parameters:
    ///   - executable: The `notulad` to run.
    ///   - home: A folder to make for its XDG_DATA_HOME, XDG_CONFIG_HOME, XDG_CACHE_HOME and its log.
    ///   - bus: The bench's connection to the bus notulad joins.
    ///   - arguments: Its command line (`--source NAME`).
    ///   - environment: Variables added to the bench's own environment.
    ///   - settings: The content of its settings.json, when it should have one.
    /// - Throws: `ServiceExited` with its log when it exits before owning the name.
    static func start(
        _ executable: String, home: URL, bus: Bus, arguments: [String] = [], environment: [String: String] = [:],
        settings: String? = nil
    ) async throws -> LaunchedService {
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        let config = home.appendingPathComponent("config")
        if let settings {
            let folder = config.appendingPathComponent("notula")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try Data(settings.utf8).write(to: folder.appendingPathComponent("settings.json"))
        }
        let logFile = home.appendingPathComponent("notulad.log")
        _ = FileManager.default.createFile(atPath: logFile.path, contents: nil)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment
            .merging([
                "XDG_DATA_HOME": home.appendingPathComponent("data").path, "XDG_CONFIG_HOME": config.path,
                "XDG_CACHE_HOME": home.appendingPathComponent("cache").path,
                // No sound theme: the bench times the service, and the opening cue would add its length to each Start.
                "XDG_DATA_DIRS": home.appendingPathComponent("no-shared-data").path,
            ]) { $1 }
            .merging(environment) { $1 }
        process.standardError = try FileHandle(forWritingTo: logFile)
        let service = LaunchedService(process: process, bus: bus, logFile: logFile)
        try await service.runUntilNameOwned()
        return service
    }

    private func runUntilNameOwned() async throws {
        do { try await launch(process, owning: NotulaBus.name, watchedFrom: bus) } catch is PeerExited {
            throw ServiceExited(status: process.terminationStatus, log: log)
        }
    }

    private func nameOwnerChanges() async throws -> AsyncStream<Message> {
        try await bus.signals(
            matching: MatchRule(
                sender: "org.freedesktop.DBus", interface: "org.freedesktop.DBus", member: "NameOwnerChanged", arg0: NotulaBus.name.rawValue
            ))
    }

    /// What it has logged so far (stderr).
    var log: String { (try? String(contentsOf: logFile, encoding: .utf8)) ?? "" }

    /// Returns once it has logged `text` `occurrence` times.
    /// - Throws: `LogLineMissing` when it exits or `deadline` passes first.
    func waitForLog(_ text: String, occurrence: Int = 1, within deadline: Duration = .seconds(60)) async throws {
        try await waitForLine(text, occurrence: occurrence, in: logFile, within: deadline) { process.isRunning }
    }

    /// Ends it with SIGTERM, as a session ends it, and returns once its bus name is free for the next one.
    func stop() async throws {
        guard pid > 0, process.isRunning else { return }
        let owners = try await nameOwnerChanges()
        kill(pid, SIGTERM)
        process.waitUntilExit()
        for await message in owners where (try? message.argument(2, as: String.self))?.isEmpty == true { break }
    }

    deinit {
        if pid > 0, process.isRunning {
            kill(pid, SIGKILL)
            process.waitUntilExit()
        }
    }
}
