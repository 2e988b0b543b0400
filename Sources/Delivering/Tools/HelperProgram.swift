import Foundation

/// A program that types or copies for Notula (`wtype`, `xdotool`, `wl-copy`, `xclip`), run by the absolute path found
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

    /// The most of a program's standard output that a run returns.
    static var outputLimit: Int { ScratchFiles.outputLimit }

    /// How a run ended: its exit status, what it printed, and the start of what it wrote to standard error.
    struct Ending: Sendable {
        let status: Int32
        let output: String
        let errorOutput: String
    }

    /// Runs the program with `arguments`, `input` as its standard input, and only `environment` plus a UTF-8 locale
    /// (wtype and xdotool read their text through the locale, and in the C locale stop at the first `é`, wtype
    /// still exiting 0). Returns when the program exits; a program that forks a child to serve the clipboard returns
    /// when the parent does.
    /// - Throws: `DeliveryError` when it cannot be started, or runs longer than `timeLimit` and is killed.
    func run(_ arguments: [String], input: String, environment: [String: String], timeLimit: Duration)
        async throws(DeliveryError) -> Ending
    {
        let files: ScratchFiles
        do { files = try ScratchFiles(input: input) } catch {
            throw DeliveryError("Could not prepare the text for \(name): \(error.localizedDescription)")
        }
        let child: ChildProcess
        do {
            child = try ChildProcess(
                path: path, arguments: arguments, environment: environment.merging(["LC_ALL": "C.UTF-8"]) { _, utf8 in utf8 },
                input: files.input.fileDescriptor, output: files.output.writer.fileDescriptor,
                errorOutput: files.errorOutput.writer.fileDescriptor)
        } catch {
            throw DeliveryError("Could not start \(path): \(error.description).")
        }
        let watchdog = Task {
            guard (try? await Task.sleep(for: timeLimit)) != nil else { return }
            child.kill()
        }
        defer { watchdog.cancel() }
        let ended = await withTaskCancellationHandler {
            await child.ended()
        } onCancel: {
            child.kill()
        }
        guard let status = ended else {
            if Task.isCancelled { throw DeliveryError("\(name) was stopped: the delivery was cancelled.") }
            throw DeliveryError(
                "\(name) did not finish within \(timeLimit.inSeconds) and was stopped; the text may have arrived only in part.")
        }
        return Ending(
            status: status, output: files.output.read(upTo: ScratchFiles.outputLimit),
            errorOutput: files.errorOutput.read(upTo: ScratchFiles.errorExcerpt).trimmingCharacters(in: .whitespacesAndNewlines))
    }
}

/// The program's standard input, output and error as unlinked files: writing the text can never block on a program
/// that does not read, and a forked child that keeps them open (xclip, wl-copy) keeps nobody waiting for an end of file.
private struct ScratchFiles {
    /// A file the program writes to, and the handle to read it back.
    struct Written {
        let writer: FileHandle
        private let reader: FileHandle

        init(_ path: String) throws {
            writer = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
            reader = try FileHandle(forReadingFrom: URL(fileURLWithPath: path))
        }

        func read(upTo limit: Int) -> String {
            String(decoding: ((try? reader.read(upToCount: limit)) ?? nil) ?? Data(), as: UTF8.self)
        }
    }

    let input: FileHandle
    let output: Written
    let errorOutput: Written
    /// Enough of standard error to say what went wrong.
    static let errorExcerpt = 500
    /// Enough for a keyboard map (`xmodmap -pk`: about 20 kB).
    static let outputLimit = 256 * 1024

    init(input text: String) throws {
        let folder = FileManager.default.temporaryDirectory.path
        let paths = ["text", "stdout", "stderr"].map { "\(folder)/notula-\($0)-\(UUID().uuidString)" }
        defer { paths.forEach { unlink($0) } }
        // 0600: the text is the user's dictation.
        for (path, contents) in zip(paths, [Data(text.utf8), Data(), Data()]) {
            guard FileManager.default.createFile(atPath: path, contents: contents, attributes: [.posixPermissions: 0o600]) else {
                throw CocoaError(.fileWriteUnknown)
            }
        }
        input = try FileHandle(forReadingFrom: URL(fileURLWithPath: paths[0]))
        output = try Written(paths[1])
        errorOutput = try Written(paths[2])
    }
}

extension Duration {
    /// "10 s", "0.5 s": for messages.
    var inSeconds: String {
        let (seconds, attoseconds) = components
        return "\((Double(seconds) + Double(attoseconds) / 1e18).formatted(.number.precision(.fractionLength(0...1)))) s"
    }
}
