import DBus
import Foundation

/// A throwaway dbus-daemon for one test: its own address, gone when the value is.
///
/// It starts no service by D-Bus activation, but from the one folder it is given: the machine's
/// session services (dunst, say, as `org.freedesktop.Notifications`) would otherwise be started by
/// a test's first call to them.
public final class PrivateBus {
    public let address: String
    /// Its address on the loopback's TCP, where it listens there too: a connection there cannot pass file descriptors.
    public let tcpAddress: String?
    /// Nil for a bus another host runs (a desktop's session bus), which this value does not end.
    private let daemon: Process?
    private let configuration: URL?

    /// The session bus's own configuration (its limits, its policy), with `services` in place of
    /// `<standard_session_servicedirs />`; its relative include made absolute, as the copy lives elsewhere.
    /// Open to every user, it also lets in the peers a test runs as another user (a compositor that refuses root).
    private static func session(activatingFrom services: URL?, openToEveryUser: Bool, overTCP: Bool) throws -> String {
        try String(contentsOfFile: "/usr/share/dbus-1/session.conf", encoding: .utf8)
            .replacingOccurrences(
                of: "<auth>EXTERNAL</auth>",
                with: "<auth>EXTERNAL</auth>"
                    // TCP carries no credentials: anonymous clients there, as a remote one would be.
                    + (overTCP ? "<listen>tcp:host=127.0.0.1,port=0</listen><auth>ANONYMOUS</auth><allow_anonymous/>" : "")
            )
            .replacingOccurrences(
                of: #"<policy context="default">"#, with: #"<policy context="default">"# + (openToEveryUser ? #"<allow user="*"/>"# : "")
            )
            .replacingOccurrences(
                of: "<standard_session_servicedirs />", with: services.map { "<servicedir>\($0.path)</servicedir>" } ?? ""
            )
            .replacingOccurrences(of: "<includedir>session.d</includedir>", with: "<includedir>/usr/share/dbus-1/session.d</includedir>")
    }

    /// Starts the daemon.
    /// - Parameters:
    ///   - services: a folder of activation files (`$datadir/dbus-1/services`) whose services the bus starts on demand.
    ///   - environment: the daemon's environment, which the services it starts inherit; the test's own otherwise.
    ///   - log: where the daemon's and its services' stderr goes; the test's own otherwise.
    ///   - openToEveryUser: whether processes of other users may connect, not only the test's own.
    ///   - overTCP: whether it also listens on the loopback's TCP (`tcpAddress`), for anonymous clients.
    public init(
        activatingFrom services: URL? = nil, environment: [String: String]? = nil, log: URL? = nil, openToEveryUser: Bool = false,
        overTCP: Bool = false
    ) throws {
        let configuration = FileManager.default.temporaryDirectory.appendingPathComponent("notula-bus-\(UUID().uuidString).conf")
        try Data(try Self.session(activatingFrom: services, openToEveryUser: openToEveryUser, overTCP: overTCP).utf8).write(
            to: configuration)
        self.configuration = configuration
        let daemon = Process()
        daemon.executableURL = URL(fileURLWithPath: "/usr/bin/dbus-daemon")
        daemon.arguments = ["--config-file=\(configuration.path)", "--nofork", "--print-address=1"]
        if let environment { daemon.environment = environment }
        if let log {
            _ = FileManager.default.createFile(atPath: log.path, contents: nil)
            daemon.standardError = try FileHandle(forWritingTo: log)
        }
        let output = Pipe()
        daemon.standardOutput = output
        try daemon.run()
        // One address a listener, separated by semicolons: the Unix socket first.
        let addresses = try readLine(from: output.fileHandleForReading).split(separator: ";").map(String.init)
        address = addresses.first { $0.hasPrefix("unix:") } ?? addresses.first ?? ""
        tcpAddress = addresses.first { $0.hasPrefix("tcp:") }
        self.daemon = daemon
    }

    /// The session bus of a desktop a test host runs, as a service under test's bus.
    public init(attachedTo address: String) {
        self.address = address
        tcpAddress = nil
        daemon = nil
        configuration = nil
    }

    deinit {
        guard let daemon, let configuration else { return }
        // SIGKILL: a child of the test runner may inherit a mask that blocks SIGTERM.
        kill(daemon.processIdentifier, SIGKILL)
        daemon.waitUntilExit()
        try? FileManager.default.removeItem(at: configuration)
    }

    /// A new connection to this bus.
    public func connect() async throws -> Bus { try await Bus.connect(address: address) }

    /// The environment a child process needs to reach this bus.
    public var environment: [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["DBUS_SESSION_BUS_ADDRESS"] = address
        return environment
    }
}

public struct MissingOutput: Error { public init() {} }

/// Reads up to the first newline (blocking on the child's output, not on a clock).
public func readLine(from handle: FileHandle) throws -> String {
    var bytes: [UInt8] = []
    while true {
        guard let chunk = try handle.read(upToCount: 1), let byte = chunk.first else { throw MissingOutput() }
        if byte == UInt8(ascii: "\n") { break }
        bytes.append(byte)
    }
    return String(decoding: bytes, as: UTF8.self)
}
