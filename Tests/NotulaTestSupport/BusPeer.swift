import DBus
import Foundation

/// Starts `process`, a peer that takes `name` on `bus`, and returns once it owns it.
/// - Throws: `PeerExited` when it exits first.
func launch(_ process: Process, owning name: BusName, on bus: PrivateBus) async throws {
    let client = try await bus.connect()
    defer { Task { await client.close() } }
    try await launch(process, owning: name, watchedFrom: client)
}

/// Starts `process`, a peer that takes `name` on the bus `client` is connected to, and returns once it owns it.
/// - Throws: `PeerExited` when it exits first.
public func launch(_ process: Process, owning name: BusName, watchedFrom client: Bus) async throws {
    let owners = try await client.signals(
        matching: MatchRule(
            sender: "org.freedesktop.DBus", interface: "org.freedesktop.DBus", member: "NameOwnerChanged", arg0: name.rawValue))
    let (events, sink) = AsyncStream.makeStream(of: Bool.self)
    process.terminationHandler = { _ in sink.yield(false) }
    let forward = Task {
        for await message in owners where (try? message.argument(2, as: String.self))?.isEmpty == false { sink.yield(true) }
    }
    defer { forward.cancel() }
    try process.run()
    for await owned in events {
        if owned { return }
        throw PeerExited(command: process.executableURL?.path ?? "", status: process.terminationStatus)
    }
}

public struct PeerExited: Error, CustomStringConvertible {
    public let command: String
    public let status: Int32
    public var description: String { "\(command) exited with status \(status) before owning its name" }
}

/// Ends a child the test started: SIGKILL, as a child of the test runner may inherit a mask that blocks SIGTERM.
func kill(_ process: Process) {
    guard process.isRunning else { return }
    kill(process.processIdentifier, SIGKILL)
    process.waitUntilExit()
}

/// Returns once `logFile` holds `text` `occurrence` times; throws `LogLineMissing` when `isRunning` turns false or
/// the deadline passes first. For what a peer reports nowhere but in its log, read as it grows.
public func waitForLine(
    _ text: String, occurrence: Int = 1, in logFile: URL, within deadline: Duration, while isRunning: () -> Bool
) async throws {
    func log() -> String { (try? String(contentsOf: logFile, encoding: .utf8)) ?? "" }
    try await poll(within: deadline) {
        if log().components(separatedBy: text).count - 1 >= occurrence { return true }
        guard isRunning() else { throw LogLineMissing(text: text, log: log()) }
        return false
    } otherwise: {
        LogLineMissing(text: text, log: log())
    }
}

/// Returns once `condition` holds, asking it again every 20 ms; throws what `failure` makes when the deadline
/// passes first. Only for what a peer reports nowhere but in a file, a command's output or a method's reply:
/// with no signal to wait on, asking again is the one honest way.
public func poll(within deadline: Duration, until condition: () async throws -> Bool, otherwise failure: () -> any Error)
    async throws
{
    let end = ContinuousClock.now + deadline
    while try await !condition() {
        guard ContinuousClock.now < end else { throw failure() }
        try await Task.sleep(for: .milliseconds(20))
    }
}
