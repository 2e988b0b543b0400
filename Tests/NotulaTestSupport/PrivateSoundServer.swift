import Foundation

/// A PulseAudio server of one test's own, with a null sink `mic` whose monitor is the default
/// source: the calls it hears, the sources it loses and its death reach no other test, and it
/// can be killed and started again at the same address.
public final class PrivateSoundServer {
    public let folder: URL
    private var silence: Process?

    public init() async throws {
        folder = URL(fileURLWithPath: "/tmp/notula-pulse-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("runtime"), withIntermediateDirectories: true)
        chmod(folder.appendingPathComponent("runtime").path, 0o700)
        try await start()
    }

    /// The server string clients connect to.
    public var address: String { "unix:" + folder.appendingPathComponent("runtime/pulse/native").path }

    /// What a client of this server (notulad, pactl, paplay) needs in its environment.
    public var environment: [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["PULSE_SERVER"] = address
        return environment
    }

    /// Starts the server (again, after `kill`), returning once it answers, with `mic.monitor` the
    /// default source, kept busy by a stream of silence as a live microphone is; the wait for it (about 2 s) on a
    /// thread of its own, as `NullSink`'s.
    public func start() async throws {
        var environment = self.environment
        environment["XDG_RUNTIME_DIR"] = folder.appendingPathComponent("runtime").path
        environment["HOME"] = folder.path
        // Off the session bus: there it would claim org.PulseAudio1, which the suite's own server holds.
        environment["DBUS_SESSION_BUS_ADDRESS"] = nil
        let started = try run(
            "pulseaudio",
            [
                "-n", "--daemonize=yes", "--exit-idle-time=-1", "--load=module-native-protocol-unix",
                "--load=module-null-sink sink_name=mic rate=16000 channels=1", "--load=module-always-sink",
                "--log-target=file:\(folder.appendingPathComponent("pulse.log").path)",
            ], environment: environment)
        guard started.status == 0 else {
            let log = (try? String(contentsOf: folder.appendingPathComponent("pulse.log"), encoding: .utf8)) ?? ""
            throw SinkError(message: "pulseaudio exited with \(started.status): \(started.errorOutput)\(log)")
        }
        try pactl("set-default-source", "mic.monitor")
        silence = try play("/dev/zero", raw: true)
        try await onThreadOfItsOwn { [environment] in try waitUntilLive("mic.monitor", environment: environment) }
    }

    /// Kills the server outright, as a crash would; its clients see their connection fail.
    /// Returns once it is dead (a zombie at most: its socket closed) and its pid file gone.
    public func kill() async throws {
        let pid = try serverPID()
        Foundation.kill(pid, SIGKILL)
        if let silence { NotulaTestSupport.kill(silence) }
        silence = nil
        try await poll(within: .seconds(10)) {
            let status = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
            return status.isEmpty || status.contains("State:\tZ")
        } otherwise: {
            SinkError(message: "the private PulseAudio (pid \(pid)) outlived SIGKILL")
        }
        try? FileManager.default.removeItem(at: folder.appendingPathComponent("runtime/pulse/pid"))
    }

    private func serverPID() throws -> Int32 {
        let pid = try String(contentsOf: folder.appendingPathComponent("runtime/pulse/pid"), encoding: .utf8)
        guard let number = Int32(pid.trimmingCharacters(in: .whitespacesAndNewlines)), number > 0 else {
            throw SinkError(message: "no pid for the private PulseAudio")
        }
        return number
    }

    /// Kills the record stream of the client named `applicationName`, as the server does when its
    /// source goes and there is nowhere to move it. pactl cannot kill; pacmd can, through the CLI
    /// module, loaded for the moment (pacmd finds it in the server's runtime folder).
    public func killRecordStream(of applicationName: String) throws {
        let blocks = try pactl("list", "source-outputs").components(separatedBy: "Source Output #").dropFirst()
        guard let ours = blocks.first(where: { $0.contains("application.name = \"\(applicationName)\"") }) else {
            throw SinkError(message: "no record stream of \(applicationName)")
        }
        let cli = try pactl("load-module", "module-cli-protocol-unix").trimmingCharacters(in: .whitespacesAndNewlines)
        defer { _ = try? pactl("unload-module", cli) }
        var environment = self.environment
        environment["XDG_RUNTIME_DIR"] = folder.appendingPathComponent("runtime").path
        let killed = try run("pacmd", ["kill-source-output", String(ours.prefix { $0.isNumber })], environment: environment)
        guard killed.status == 0 else { throw SinkError(message: "pacmd: \(killed.errorOutput)") }
    }

    /// Runs pactl against this server; returns its output.
    @discardableResult
    public func pactl(_ arguments: String...) throws -> String {
        try output(of: ["pactl"] + arguments, environment: environment)
    }

    /// Plays `file` into `mic` with the stream properties `properties` (`media.role=phone`), as a
    /// process of its own: it ends when the file has played, or when the test kills it.
    public func play(_ file: String, raw: Bool = false, properties: [String] = []) throws -> Process {
        let player = Process()
        player.executableURL = URL(fileURLWithPath: raw ? "/usr/bin/pacat" : "/usr/bin/paplay")
        let format = raw ? ["--raw", "--format=s16le", "--rate=16000", "--channels=1"] : []
        player.arguments = ["--device=mic", "--latency-msec=20"] + format + properties.map { "--property=\($0)" } + [file]
        player.environment = environment
        try player.run()
        return player
    }

    /// Records from `mic.monitor` into nothing with the stream properties `properties`, until the test kills it.
    public func record(properties: [String]) throws -> Process {
        let recorder = Process()
        recorder.executableURL = URL(fileURLWithPath: "/usr/bin/parec")
        recorder.arguments = ["--device=mic.monitor", "--raw"] + properties.map { "--property=\($0)" }
        recorder.environment = environment
        recorder.standardOutput = FileHandle.nullDevice
        try recorder.run()
        return recorder
    }

    deinit {
        if let pid = try? serverPID() { Foundation.kill(pid, SIGKILL) }
        if let silence { NotulaTestSupport.kill(silence) }
        try? FileManager.default.removeItem(at: folder)
    }
}
