import DBus
import Foundation
import NotulaContract
import NotulaTestSupport
import Testing

/// A mount namespace in which the Swift toolchain's folder is an empty tmpfs: what runs in it needs nothing of the
/// toolchain, as on a machine that never had one.
struct HiddenToolchain {
    /// The toolchain's folder (`/opt/swift`): the one the debug build's RUNPATH leads into.
    let folder: String

    /// The namespace where one can be made here; the test is cancelled, saying why, where none can.
    static func available() throws -> HiddenToolchain {
        let toolchain = HiddenToolchain(folder: try toolchainFolder())
        let probe = try toolchain.run(["/bin/true"])
        guard probe.status == 0 else {
            let reason = "no mount namespace with \(toolchain.folder) hidden can be made here: \(probe.errorOutput)"
            print("Skipped: \(reason)")
            try Test.cancel(Comment(rawValue: reason))
        }
        return toolchain
    }

    /// The toolchain above the runtime folder the debug build names (`/opt/swift/usr/lib/swift/linux`), or that
    /// runtime folder itself where the toolchain is installed in `/usr`.
    private static func toolchainFolder() throws -> String {
        let dynamic = try output(of: "readelf", "-d", binaryDirectory.appendingPathComponent("notula").path)
        let runpath = dynamic.split(separator: "\n").first { $0.contains("(RUNPATH)") || $0.contains("(RPATH)") }
        let runtime = try #require(
            runpath.flatMap { $0.split(separator: "[").last?.split(separator: "]").first }?.split(separator: ":")
                .first { $0.hasPrefix("/") && !$0.hasPrefix(packageRoot.path) },
            "no toolchain folder in the debug build's RUNPATH: \(dynamic)")
        let root = runtime.components(separatedBy: "/usr/lib/swift").first ?? ""
        return root.isEmpty ? String(runtime) : root
    }

    /// `arguments` run in a new mount namespace, with an empty tmpfs over the toolchain's folder.
    func command(_ arguments: [String]) -> [String] {
        ["/usr/bin/unshare", "--mount", "--propagation", "private", "/bin/sh", "-c", #"mount -t tmpfs tmpfs "$0" && exec "$@""#, folder]
            + arguments
    }

    /// Whether the library at `path` loads in the namespace (libvosk, which notulad opens only to transcribe).
    func loads(library path: String) throws -> CommandResult {
        try run(["/usr/bin/python3", "-c", "import ctypes, sys; ctypes.CDLL(sys.argv[1])", path])
    }

    /// Runs `notulad`'s decoding helper on `library` with nothing to decode: it exits 0 once it has loaded libwhisper
    /// and found it 1.8.5, and says why it could not otherwise.
    func whisperHelper(_ notulad: String, library: String) throws -> CommandResult {
        try run(["/bin/sh", "-c", "exec \"$0\" --decoding-helper \"$1\" '' </dev/null", notulad, library])
    }

    /// notulad's voice helper (Silero through sherpa-onnx) hearing espeak-ng say a sentence: a line per utterance.
    /// - Parameter scratch: where the samples are written.
    func voiceHelper(_ notulad: String, library: String, model: String, scratch: URL) throws -> CommandResult {
        let samples = scratch.appendingPathComponent("spoken.raw").path
        let spoken = try speech("The patient reports mild chest pain.")
        defer { try? FileManager.default.removeItem(atPath: spoken) }
        _ = try NotulaTestSupport.run("sox", [spoken, "-r", "16000", "-c", "1", "-b", "16", "-e", "signed-integer", "-t", "raw", samples])
        return try run(["/bin/sh", "-c", "exec \"$0\" --voice-helper \"$1\" \"$2\" < \"$3\"", notulad, library, model, samples])
    }

    /// Runs `arguments` to its end in the namespace.
    func run(_ arguments: [String], environment: [String: String]? = nil) throws -> CommandResult {
        let command = command(arguments)
        return try NotulaTestSupport.run(command[0], Array(command.dropFirst()), environment: environment)
    }

    /// What the notulad that D-Bus activation started was.
    struct ActivatedService {
        /// What `notula status` printed.
        let status: CommandResult
        /// Its executable, as /proc/PID/exe names it.
        let executable: String
        /// The files it had mapped (its libraries), from /proc/PID/maps.
        let mappedFiles: Set<String>
        /// What the bus and notulad wrote to stderr: the libvosk transcriptions will open is named there.
        let log: String
    }

    /// `notula status` with the toolchain hidden, on a private bus whose daemon (so the notulad it starts by
    /// activation from `services`) runs with the toolchain hidden too; notulad is stopped again before this returns.
    /// - Parameter scratch: a folder for the bus's configuration and the service's throwaway home.
    func statusThroughActivation(notula: URL, services: URL, scratch: URL) async throws -> ActivatedService {
        let configuration = scratch.appendingPathComponent("bus.conf")
        try String(contentsOfFile: "/usr/share/dbus-1/session.conf", encoding: .utf8)
            .replacingOccurrences(of: "<standard_session_servicedirs />", with: "<servicedir>\(services.path)</servicedir>")
            .replacingOccurrences(of: "<includedir>session.d</includedir>", with: "<includedir>/usr/share/dbus-1/session.d</includedir>")
            .write(to: configuration, atomically: true, encoding: .utf8)
        // What an activated service inherits is the bus daemon's environment: a user's, here with throwaway folders.
        var environment = ProcessInfo.processInfo.environment
        environment["NOTULA_VOSK_LIBRARY"] = nil
        let home = scratch.appendingPathComponent("home")
        for (variable, folder) in [("HOME", ""), ("XDG_DATA_HOME", "/data"), ("XDG_CONFIG_HOME", "/config"), ("XDG_CACHE_HOME", "/cache")] {
            environment[variable] = home.path + folder
        }
        let log = scratch.appendingPathComponent("bus.log")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        let daemon = Process()
        let daemonCommand = command(["/usr/bin/dbus-daemon", "--config-file=\(configuration.path)", "--nofork", "--print-address=1"])
        daemon.executableURL = URL(fileURLWithPath: daemonCommand[0])
        daemon.arguments = Array(daemonCommand.dropFirst())
        daemon.environment = environment
        daemon.standardError = try FileHandle(forWritingTo: log)
        let addressPipe = Pipe()
        daemon.standardOutput = addressPipe
        try daemon.run()
        defer {
            // SIGKILL: a child of the test runner may inherit a mask that blocks SIGTERM.
            kill(daemon.processIdentifier, SIGKILL)
            daemon.waitUntilExit()
        }
        let address = try readLine(from: addressPipe.fileHandleForReading)
        environment["DBUS_SESSION_BUS_ADDRESS"] = address

        let status = try run([notula.path, "status"], environment: environment)
        func busLog() -> String { (try? String(contentsOf: log, encoding: .utf8)) ?? "" }
        let client = try await Bus.connect(address: address)
        let owner = try #require(try await client.owner(of: NotulaBus.name), "notulad was not started: \(status) \(busLog())")
        let pid = Int32(try await client.processID(of: owner))
        let executable = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/exe")
        // Read to its end: /proc files have no size for a reader that trusts it.
        let maps = String(decoding: try #require(FileHandle(forReadingAtPath: "/proc/\(pid)/maps")).readDataToEndOfFile(), as: UTF8.self)
        let mappedFiles = Set(maps.split(separator: "\n").compactMap { line in line.firstIndex(of: "/").map { String(line[$0...]) } })
        // A clean stop: the service leaves the bus by itself, and its process ends.
        kill(pid, SIGTERM)
        try await poll(within: .seconds(30), until: { try await client.owner(of: NotulaBus.name) == nil }) {
            NotulaDidNotStop(log: busLog(), threads: [])
        }
        do {
            try await poll(within: .seconds(30), until: { !isRunning(pid) }) {
                NotulaDidNotStop(log: busLog(), threads: threadsWaiting(in: pid))
            }
        } catch {
            kill(pid, SIGKILL)
            throw error
        }
        return ActivatedService(status: status, executable: executable, mappedFiles: mappedFiles, log: busLog())
    }
}

/// The activated notulad still owned its name, or still ran, 30 s after SIGTERM.
struct NotulaDidNotStop: Error {
    let log: String
    /// Where each of its threads waited (name, kernel wait channel, kernel stack), when it still ran.
    let threads: [String]
}

/// Whether process `pid` still runs: it exists and is not a zombie its parent has yet to reap.
private func isRunning(_ pid: Int32) -> Bool {
    guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8) else { return false }
    // The state follows the parenthesised name, which may itself hold spaces and parentheses.
    return stat.split(separator: ")").last?.split(separator: " ").first != "Z"
}

/// Each thread of `pid`: its name, its kernel wait channel and (readable by root) its kernel stack.
private func threadsWaiting(in pid: Int32) -> [String] {
    let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
    return tasks.sorted().map { task in
        let read = { (name: String) in
            (try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/\(name)", encoding: .utf8))?
                .trimmingCharacters(in: .whitespacesAndNewlines) ?? "?"
        }
        return "\(task) \(read("comm")) \(read("wchan")) \(read("stack").replacingOccurrences(of: "\n", with: " < "))"
    }
}
