import DBus
import Foundation

/// A throwaway dbus-daemon for one test: its own address, gone when the value is.
public final class PrivateBus {
    public let address: String
    private let daemon: Process

    public init() throws {
        daemon = Process()
        daemon.executableURL = URL(fileURLWithPath: "/usr/bin/dbus-daemon")
        daemon.arguments = ["--session", "--nofork", "--print-address=1", "--address=unix:tmpdir=/tmp"]
        let output = Pipe()
        daemon.standardOutput = output
        try daemon.run()
        address = try readLine(from: output.fileHandleForReading)
    }

    deinit {
        // SIGKILL: a child of the test runner may inherit a mask that blocks SIGTERM.
        kill(daemon.processIdentifier, SIGKILL)
        daemon.waitUntilExit()
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

struct MissingOutput: Error {}

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
