import Foundation

/// What a finished command printed and returned.
public struct CommandResult: Sendable {
    public let status: Int32
    public let output: String
    public let errorOutput: String
}

/// Runs a command to its end, with `environment`; throws only when it cannot be started.
@discardableResult
public func run(_ command: String, _ arguments: [String], environment: [String: String]? = nil) throws -> CommandResult {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: command.hasPrefix("/") ? command : "/usr/bin/env")
    process.arguments = command.hasPrefix("/") ? arguments : [command] + arguments
    if let environment { process.environment = environment }
    // stderr goes to a file, so that reading stdout to its end can never block on a full stderr pipe.
    let errorFile = FileManager.default.temporaryDirectory.appendingPathComponent("notula-stderr-\(UUID().uuidString)")
    _ = FileManager.default.createFile(atPath: errorFile.path, contents: nil)
    defer { try? FileManager.default.removeItem(at: errorFile) }
    let output = Pipe()
    process.standardOutput = output
    process.standardError = try FileHandle(forWritingTo: errorFile)
    try process.run()
    let outputData = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return CommandResult(
        status: process.terminationStatus, output: String(decoding: outputData, as: UTF8.self),
        errorOutput: (try? String(contentsOf: errorFile, encoding: .utf8)) ?? "")
}

/// A command that exited with a failure, with what it said.
public struct CommandFailed: Error, CustomStringConvertible {
    public let command: [String]
    public let status: Int32
    public let errorOutput: String
    public var description: String { "\(command.joined(separator: " ")) exited with \(status): \(errorOutput)" }
}

/// Runs a program found on PATH to its end and returns its standard output.
/// - Throws: `CommandFailed` when it exits with a failure.
@discardableResult
public func output(of arguments: String...) throws -> String { try output(of: arguments) }

@discardableResult
public func output(of arguments: [String], environment: [String: String]? = nil) throws -> String {
    let result = try run(arguments[0], Array(arguments.dropFirst()), environment: environment)
    guard result.status == 0 else { throw CommandFailed(command: arguments, status: result.status, errorOutput: result.errorOutput) }
    return result.output
}

/// A command left running while the test reads its output line by line (`notula status --follow`);
/// ended with SIGKILL when the value goes, as a child of the test runner may have SIGTERM blocked.
public final class RunningCommand {
    private let process = Process()
    private let output = Pipe()

    public init(_ command: String, _ arguments: [String], environment: [String: String]) throws {
        process.executableURL = URL(fileURLWithPath: command)
        process.arguments = arguments
        process.environment = environment
        process.standardOutput = output
        try process.run()
    }

    /// The next line it prints, without its newline; blocks until it comes.
    /// - Throws: `MissingOutput` when the command ends first.
    public func nextLine() throws -> String { try readLine(from: output.fileHandleForReading) }

    /// Its exit status, once it ends by itself.
    public func exitStatus() -> Int32 {
        process.waitUntilExit()
        return process.terminationStatus
    }

    /// Ctrl-C, as a user in a terminal stops it; its exit status.
    public func interrupt() -> Int32 {
        kill(process.processIdentifier, SIGINT)
        return exitStatus()
    }

    deinit {
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }
}
