import FoundationEssentials

/// A program that types or copies for Notula (`wtype`, `xdotool`, `xmodmap`, `swaymsg`), run by the absolute path found
/// when the session was probed, with an argument array and never through a shell.
public struct HelperProgram: Sendable, Equatable {
    public let path: String

    public init(path: String) { self.path = path }

    /// The name the user knows it by, for messages.
    public var name: String { URL(fileURLWithPath: path).lastPathComponent }

    /// The first executable file called `name` in the folders of `searchPath` (a `PATH` value), or nil.
    public static func find(_ name: String, on searchPath: String) -> HelperProgram? {
        searchPath.split(separator: ":").lazy
            .map { "\($0)/\(name)" }
            .first { $0.hasPrefix("/") && FileManager.default.isExecutableFile(atPath: $0) }
            .map(HelperProgram.init(path:))
    }

    /// The most of a program's standard output that a run returns: enough for a keyboard map (`xmodmap -pk`: about 20 kB).
    static let outputLimit = 256 * 1024
    /// Enough of standard error to say what went wrong.
    static let errorExcerpt = 500

    /// How a run ended: its exit status, what it printed, and the start of what it wrote to standard error.
    struct Ending: Sendable {
        let status: Int32
        let outputBytes: [UInt8]
        let errorOutput: String

        var output: String { String(decoding: outputBytes, as: UTF8.self) }

        /// What a failed run said, or its exit status when it said nothing.
        var failure: String { errorOutput.isEmpty ? "exit status \(status)" : errorOutput }
    }

    /// Runs the program with `arguments`, `input` as its standard input, and only `environment` plus a UTF-8 locale
    /// (wtype and xdotool read their text through the locale, and in the C locale stop at the first `é`, wtype
    /// still exiting 0). Returns when the program exits; a program that forks a child to serve the clipboard returns
    /// when the parent does.
    /// - Throws: `DeliveryError` when it cannot be started, or runs longer than `timeLimit` and is killed.
    func run(_ arguments: [String], input: String, environment: [String: String], timeLimit: Duration)
        async throws(DeliveryError) -> Ending
    {
        try await run(arguments, input: Array(input.utf8), environment: environment, timeLimit: timeLimit)
    }

    /// `run` with bytes in, and up to `outputLimit` bytes of standard output back.
    func run(
        _ arguments: [String], input: [UInt8], environment: [String: String], timeLimit: Duration,
        outputLimit: Int = HelperProgram.outputLimit
    ) async throws(DeliveryError) -> Ending {
        let (textFile, output, errorOutput): (MemoryFile, MemoryFile, MemoryFile)
        do { (textFile, output, errorOutput) = (try MemoryFile(holding: input), try MemoryFile(), try MemoryFile()) } catch {
            throw DeliveryError("Could not prepare the text for \(name): \(error.description).")
        }
        let child: ChildProcess
        do {
            child = try ChildProcess(
                path: path, arguments: arguments, environment: environment.merging(["LC_ALL": "C.UTF-8"]) { _, utf8 in utf8 },
                input: textFile.descriptor, output: output.descriptor, errorOutput: errorOutput.descriptor)
        } catch {
            throw DeliveryError("Could not start \(path): \(error.description).")
        }
        let ended = await withTaskCancellationHandler {
            await child.ended(within: timeLimit)
        } onCancel: {
            child.kill()
        }
        guard let status = ended else {
            if Task.isCancelled { throw DeliveryError("\(name) was stopped: the delivery was cancelled.") }
            throw DeliveryError(
                "\(name) did not finish within \(timeLimit.inSeconds) and was stopped; the text may have arrived only in part.")
        }
        return Ending(
            status: status, outputBytes: output.bytes(upTo: outputLimit),
            errorOutput: errorOutput.read(upTo: Self.errorExcerpt).trimming(where: \.isWhitespace))
    }
}

extension Duration {
    /// "10 s", "0.5 s": for messages, to a tenth of a second.
    var inSeconds: String {
        let (seconds, attoseconds) = components
        let tenths = Int64((Double(seconds) * 10 + Double(attoseconds) / 1e17).rounded())
        return tenths % 10 == 0 ? "\(tenths / 10) s" : "\(tenths / 10).\(tenths % 10) s"
    }
}
