import DBus
import Foundation
import NotulaContract

/// The real `notulad`, on a private bus of its own, with temporary XDG folders and (unless told
/// otherwise) a null sink of its own to record from.
public final class ServiceUnderTest {
    public let daemon: PrivateBus
    public let home: URL
    public let sink: NullSink?
    /// A connection of the test's own to the service's bus.
    public let client: Bus
    private let process: Process
    private let errorLog: URL

    /// What the service records from.
    public enum Source {
        /// A new null sink's monitor, passed with `--source`.
        case ownSink
        /// A source named with `--source`.
        case named(String)
        /// A source named only in settings.json.
        case fromSettings(String)
    }

    /// Starts `notulad` and returns once it owns its name.
    /// - Parameters:
    ///   - environment: variables added to the service's environment.
    ///   - executable: another `notulad` than the one built (a copy elsewhere, say).
    ///   - settings: fields of settings.json, as JSON members (`"modelIdleSeconds": 1`).
    ///   - bus: a bus made beforehand, with peers already on it (a notification server); a new one otherwise.
    ///   - home: the folders of a service that ran before (its memos, its settings); new ones otherwise.
    public static func start(
        _ source: Source = .ownSink, extraArguments: [String] = [], environment: [String: String] = [:], executable: URL? = nil,
        settings: [String] = [], on bus: PrivateBus? = nil, home: URL? = nil
    ) async throws -> ServiceUnderTest {
        let daemon = try bus ?? PrivateBus()
        let client = try await daemon.connect()
        let launch = Launch(
            executable: executable ?? binaryDirectory.appendingPathComponent("notulad"), environment: environment, home: home)
        let sink: NullSink?
        let arguments: [String]
        switch source {
        case .ownSink:
            sink = try await NullSink()
            arguments = ["--source", sink!.monitor]
        case .named(let name):
            sink = nil
            arguments = ["--source", name]
        case .fromSettings:
            sink = nil
            arguments = []
        }
        let service = try ServiceUnderTest(daemon: daemon, sink: sink, client: client, arguments: arguments + extraArguments, launch)
        var members = settings
        if case .fromSettings(let name) = source { members.append(#""source": "\#(name)""#) }
        if !members.isEmpty {
            let config = service.home.appendingPathComponent("config/notula")
            // Private, as the service keeps its own files: the fuzz checks every file's mode afterwards.
            try FileManager.default.createDirectory(at: config, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            let file = config.appendingPathComponent("settings.json")
            try Data("{\(members.joined(separator: ", "))}".utf8).write(to: file)
            try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: file.path)
        }
        try await service.waitUntilReady()
        return service
    }

    private struct Launch {
        let executable: URL
        let environment: [String: String]
        let home: URL?
    }

    private init(daemon: PrivateBus, sink: NullSink?, client: Bus, arguments: [String], _ launch: Launch) throws {
        self.daemon = daemon
        self.sink = sink
        self.client = client
        home = launch.home ?? FileManager.default.temporaryDirectory.appendingPathComponent("notula-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        errorLog = home.appendingPathComponent("notulad.log")
        _ = FileManager.default.createFile(atPath: errorLog.path, contents: nil)
        process = Process()
        process.executableURL = launch.executable
        process.arguments = arguments + ["--verbose"]
        // A desktop without the sound theme, unless a test gives one: its cues would hold each Start for their length.
        let noSoundTheme = ["XDG_DATA_DIRS": home.appendingPathComponent("no-shared-data").path]
        // Nor the built-in lists of Whisper's and sherpa-onnx's models, unless a test names its own: each serves scores
        // of locales from the internet, which tests do not reach.
        let noCatalog = home.appendingPathComponent("no-catalog.json")
        try Data("[]".utf8).write(to: noCatalog)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: noCatalog.path)
        let noAccurateCatalogs = ["NOTULA_WHISPER_CATALOG": noCatalog.path, "NOTULA_SHERPA_CATALOG": noCatalog.path]
        process.environment = environment.merging(noSoundTheme) { $1 }.merging(noAccurateCatalogs) { $1 }.merging(launch.environment) { $1 }
        process.standardError = try FileHandle(forWritingTo: errorLog)
    }

    /// The environment of a process that talks to this service.
    public var environment: [String: String] {
        var environment = daemon.environment
        environment["HOME"] = home.path
        environment["XDG_DATA_HOME"] = home.appendingPathComponent("data").path
        environment["XDG_CONFIG_HOME"] = home.appendingPathComponent("config").path
        environment["XDG_CACHE_HOME"] = home.appendingPathComponent("cache").path
        return environment
    }

    /// Where the service writes recordings.
    public var recordingsFolder: URL { home.appendingPathComponent("data/notula/recordings") }

    /// What the service logged.
    public var log: String { (try? String(contentsOf: errorLog, encoding: .utf8)) ?? "" }

    /// Resident memory of the service, in bytes (VmRSS).
    public var residentBytes: Int {
        let status = (try? String(contentsOfFile: "/proc/\(process.processIdentifier)/status", encoding: .utf8)) ?? ""
        let line = status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") } ?? ""
        return (Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0) * 1024
    }

    /// The service's child processes whose command line contains `argument`.
    public func children(running argument: String) -> [Int32] {
        let pids = ((try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []).compactMap { Int32($0) }
        return pids.filter { pid in
            let stat = (try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)) ?? ""
            // After the command's closing parenthesis: state, then the parent's pid.
            let fields = stat.split(separator: ")").last?.split(separator: " ") ?? []
            guard fields.count > 1, Int32(fields[1]) == process.processIdentifier else { return false }
            let command = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline") ?? Data()
            return String(decoding: command, as: UTF8.self).contains(argument)
        }
    }

    /// The files the service has mapped (the paths of /proc/PID/maps), each once.
    public var mappedFiles: Set<String> {
        // Read to its end: String(contentsOfFile:) stops short on /proc, whose files have no size.
        let file = FileHandle(forReadingAtPath: "/proc/\(process.processIdentifier)/maps")
        let maps = String(decoding: (try? file?.readToEnd()) ?? Data(), as: UTF8.self)
        return Set(maps.split(separator: "\n").compactMap { line in line.firstIndex(of: "/").map { String(line[$0...]) } })
    }

    /// Returns once the service has logged `text` `occurrence` times; throws when it exits or the deadline passes
    /// first. For what the service reports nowhere but in its log, read as it grows.
    public func waitForLog(_ text: String, occurrence: Int = 1, within deadline: Duration = .seconds(30)) async throws {
        try await waitForLine(text, occurrence: occurrence, in: errorLog, within: deadline) { process.isRunning }
    }

    private func waitUntilReady() async throws {
        do { try await launch(process, owning: NotulaBus.name, on: daemon) } catch is PeerExited {
            throw ServiceExited(status: process.terminationStatus, log: log)
        }
    }

    /// Calls a recorder method.
    @discardableResult
    public func recorder(_ method: NotulaBus.Recorder.Method, _ arguments: [Value] = []) async throws -> Message {
        try await call(NotulaBus.recorderPath, NotulaBus.recorderInterface, method.rawValue, arguments)
    }

    /// Calls a method of the memo at `path`.
    @discardableResult
    public func memo(_ method: NotulaBus.Memo.Method, of path: ObjectPath, _ arguments: [Value] = []) async throws -> Message {
        try await call(path, NotulaBus.memoInterface, method.rawValue, arguments)
    }

    /// Calls a method of the library.
    public func library(_ method: NotulaBus.Library.Method, _ arguments: [Value]) async throws -> Message {
        try await call(NotulaBus.libraryPath, NotulaBus.libraryInterface, method.rawValue, arguments)
    }

    /// Calls any method of the service; its reply is often empty (a property `Set`, a `Delete`), so it may be ignored.
    @discardableResult
    public func call(_ path: ObjectPath, _ interface: InterfaceName?, _ member: MemberName, _ arguments: [Value] = []) async throws
        -> Message
    {
        try await client.call(
            MethodCall(destination: NotulaBus.name, path: path, interface: interface, member: member, arguments: arguments))
    }

    /// A property of the recorder.
    public func property(_ recorderProperty: NotulaBus.Recorder.Property) async throws -> Value {
        try await property(recorderProperty.rawValue, of: NotulaBus.recorderPath, interface: NotulaBus.recorderInterface)
    }

    /// Sets a property of the recorder.
    public func set(_ recorderProperty: NotulaBus.Recorder.Property, to value: Value) async throws {
        try await call(
            NotulaBus.recorderPath, "org.freedesktop.DBus.Properties", "Set",
            [.string(NotulaBus.recorderInterface.rawValue), .string(recorderProperty.rawValue), .variant(value)])
    }

    /// A property of a memo.
    public func property(_ memoProperty: NotulaBus.Memo.Property, of memo: ObjectPath) async throws -> Value {
        try await property(memoProperty.rawValue, of: memo, interface: NotulaBus.memoInterface)
    }

    /// A property of the library.
    public func property(_ libraryProperty: NotulaBus.Library.Property) async throws -> Value {
        try await property(libraryProperty.rawValue, of: NotulaBus.libraryPath, interface: NotulaBus.libraryInterface)
    }

    /// A property of any object by its name: for the interfaces outside the contract (the tray's, MPRIS).
    public func property(_ name: String, of path: ObjectPath, interface: InterfaceName) async throws -> Value {
        let reply = try await call(path, "org.freedesktop.DBus.Properties", "Get", [.string(interface.rawValue), .string(name)])
        return try reply.argument(0, as: Variant.self).value
    }

    /// The recorder's signals and property changes, in order, from now on.
    public func recorderSignals() async throws -> AsyncStream<Message> {
        try await signals(of: NotulaBus.recorderPath, interface: NotulaBus.recorderInterface)
    }

    /// Returns once the recorder's `State` is `state`, which a panel's click leads to a moment later.
    /// - Throws: `StateNotReached` after 10 s.
    public func waitForState(_ state: String) async throws {
        var current = Value.string("")
        try await poll(within: .seconds(10)) {
            current = try await property(.state)
            return current == .string(state)
        } otherwise: {
            StateNotReached(wanted: state, current: current)
        }
    }

    /// The recorder's `TimerAnchor` once its timer runs: it starts with the input's first samples, a
    /// moment after Start answers (more for an input that is late).
    public func runningTimerAnchor() async throws -> Int64 {
        var changes = try await recorderSignals().makeAsyncIterator()
        if case .int64(let anchor) = try await property(.timerAnchor), anchor != 0 { return anchor }
        while let message = await changes.next() {
            let changed = try? message.argument(1, as: [String: Variant].self)
            if let anchor = try? changed?[NotulaBus.Recorder.Property.timerAnchor.rawValue]?.get(Int64.self), anchor != 0 { return anchor }
        }
        throw SinkError(message: "The recorder's signals ended before its timer ran")
    }

    /// The signals and property changes of the object at `path`, in order, from now on.
    public func signals(of path: ObjectPath, interface: InterfaceName) async throws -> AsyncStream<Message> {
        try await client.signals(
            matching: MatchRule(sender: NotulaBus.name, path: path, interface: interface),
            MatchRule(sender: NotulaBus.name, path: path, interface: "org.freedesktop.DBus.Properties", member: "PropertiesChanged"))
    }

    /// Sends `signal` and returns the exit status.
    public func stop(with signal: Int32 = SIGTERM) -> Int32 {
        kill(process.processIdentifier, signal)
        process.waitUntilExit()
        return process.terminationStatus
    }

    /// Waits for the service to exit by itself and returns its exit status.
    public func waitForExit() -> Int32 {
        process.waitUntilExit()
        return process.terminationStatus
    }

    deinit {
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        try? FileManager.default.removeItem(at: home)
    }
}

public struct LogLineMissing: Error, CustomStringConvertible {
    public let text: String
    public let log: String
    public var description: String { "notulad never logged '\(text)':\n\(log)" }
}

public struct ServiceExited: Error, CustomStringConvertible {
    public let status: Int32
    public let log: String
    public init(status: Int32, log: String) {
        self.status = status
        self.log = log
    }
    public var description: String { "notulad exited with status \(status):\n\(log)" }
}

/// Where the built executables are: `NOTULA_BIN_DIR`, else the package's debug build.
public let binaryDirectory: URL = {
    if let directory = ProcessInfo.processInfo.environment["NOTULA_BIN_DIR"] { return URL(fileURLWithPath: directory) }
    return packageRoot.appendingPathComponent(".build/debug")
}()

/// The package's root folder, from this file's place in it.
public let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

public struct StateNotReached: Error, CustomStringConvertible {
    public let wanted: String
    public let current: Value
    public var description: String { "the recorder stayed \(current), not \(wanted)" }
}
