import Dispatch
import FoundationEssentials
import Glibc
import Recording

/// A child that fetches one document for `DocumentFetcher.helper`: started at once, its standard output read to
/// its end, then reaped.
///
/// Only the reading thread signals or reaps the child, so a process identifier is never used after it was
/// freed; a cancelled task reaches it through a pipe the reading thread polls beside the child's output.
final class FetchHelperProcess: Sendable {
    private let executable: String
    private let process: pid_t
    private let output: Int32
    /// Written to when the awaiting task is cancelled; `cancelReader` is polled with `output`.
    private let cancelReader: Int32
    private let cancelWriter: Int32

    /// Starts `executable` with `DocumentFetcher.helperArgument` and `arguments`, its standard output a pipe,
    /// its input /dev/null, its error output this process's, its signal mask empty.
    /// - Throws: `.setupFailed` when the pipes or the process cannot be made.
    /// The corresponding C functions are `pipe2` and `posix_spawn`.
    init(executable: String, arguments: [String]) throws(DownloadError) {
        var outputPipe: [Int32] = [-1, -1]
        var cancelPipe: [Int32] = [-1, -1]
        guard ChildPipe.make(&outputPipe) else { throw Self.failure("pipe2", errno) }
        guard ChildPipe.make(&cancelPipe) else {
            let code = errno
            outputPipe.forEach { close($0) }
            throw Self.failure("pipe2", code)
        }
        let started = HelperSpawn.start(executable, [DocumentFetcher.helperArgument] + arguments, input: nil, output: outputPipe[1])
        close(outputPipe[1])
        let child: pid_t
        switch started {
        case .success(let pid): child = pid
        case .failure(let error):
            close(outputPipe[0])
            cancelPipe.forEach { close($0) }
            throw Self.failure("posix_spawn \(executable)", error.code)
        }
        self.executable = executable
        process = child
        output = outputPipe[0]
        cancelReader = cancelPipe[0]
        cancelWriter = cancelPipe[1]
    }

    deinit {
        close(output)
        close(cancelReader)
        close(cancelWriter)
    }

    /// Reads the child's answer on a thread of its own and reaps it.
    /// - Parameter maximumBytes: The most bytes of document accepted; a child that writes more is stopped.
    /// - Returns: The document the child wrote.
    /// - Throws: The `DownloadError` the child wrote; `.tooLarge`; `.cancelled` when the awaiting task is
    ///   cancelled (the child is then killed); `.setupFailed` when the child ends otherwise.
    func outcome(maximumBytes: Int) async throws(DownloadError) -> [UInt8] {
        let result = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Result<[UInt8], DownloadError>, Never>) in
                DispatchQueue(label: "fetch-helper").async {
                    continuation.resume(returning: Result { () throws(DownloadError) in try self.readToEnd(maximumBytes) })
                }
            }
        } onCancel: {
            var byte: UInt8 = 1
            _ = write(cancelWriter, &byte, 1)
        }
        return try result.get()
    }

    /// The corresponding C functions are `poll`, `read`, `kill` and `waitpid`.
    private func readToEnd(_ maximumBytes: Int) throws(DownloadError) -> [UInt8] {
        // A written error is a few hundred bytes; a document may fill the limit.
        let limit = max(maximumBytes, 1 << 16)
        var bytes: [UInt8] = []
        var stop: DownloadError?
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        reading: while true {
            var watched = [
                pollfd(fd: output, events: Int16(POLLIN), revents: 0), pollfd(fd: cancelReader, events: Int16(POLLIN), revents: 0),
            ]
            if poll(&watched, 2, -1) < 0 {
                guard errno == EINTR else {
                    stop = Self.failure("poll", errno)
                    break
                }
                continue
            }
            if watched[1].revents != 0 {
                stop = .cancelled
                break
            }
            guard watched[0].revents != 0 else { continue }
            let count = buffer.withUnsafeMutableBytes { read(output, $0.baseAddress, $0.count) }
            switch count {
            case ..<0 where errno == EINTR: continue
            case ...0: break reading
            default:
                guard bytes.count + count <= limit else {
                    stop = .tooLarge(limit: Int64(maximumBytes))
                    break reading
                }
                bytes.append(contentsOf: buffer[..<count])
            }
        }
        if stop != nil { kill(process, SIGKILL) }
        let exit = ChildSpawn.reap(process)
        if let stop { throw stop }
        return try answer(bytes, exit: exit, maximumBytes: maximumBytes)
    }

    /// What the child's output means, given how it ended.
    private func answer(_ bytes: [UInt8], exit: ChildExit, maximumBytes: Int) throws(DownloadError) -> [UInt8] {
        switch exit {
        case .exited(0):
            guard bytes.count <= maximumBytes else { throw .tooLarge(limit: Int64(maximumBytes)) }
            return bytes
        case .exited(DocumentFetcher.failureStatus):
            guard let error = try? JSONDecoder().decode(DownloadError.self, from: Data(bytes)) else {
                throw .setupFailed(reason: "the fetching process \(executable) failed without saying why")
            }
            throw error
        case .exited(let status):
            throw .setupFailed(reason: "the fetching process \(executable) ended with status \(status)")
        case .signalled(let signal):
            throw .setupFailed(reason: "the fetching process \(executable) ended on signal \(signal)")
        }
    }

    private static func failure(_ call: String, _ code: Int32) -> DownloadError {
        .setupFailed(reason: "\(call): \(String(cString: strerror(code)))")
    }
}
