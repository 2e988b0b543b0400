import Foundation

/// A text on the X11 clipboard for one paste only (`xclip -loops 1`), and the moment that paste
/// has been served. The copier's parent exits once the clipboard is its own; the child it forks to serve the paste
/// keeps the write end of a pipe given as its standard output and error, so the pipe's end of file tells that the
/// child has exited: the paste was served (or something else took the clipboard).
///
/// xclip 0.13 (Debian 12's) asks for the clipboard before it forks, but the request leaves only once the child waits
/// for its first event: should the child not run for the milliseconds it takes to start the program that presses
/// the keystroke, the window pastes the previous clipboard and, the paste not served, the delivery fails. wl-copy
/// was not seen to leave such a gap.
struct OnePasteCopy: ClipboardHolding {
    /// The read end of the pipe the serving child holds.
    private let servingChild: FileHandle

    /// Puts `bytes` on the clipboard with `program` and its one-paste `arguments`; returns once the clipboard is the
    /// copier's.
    /// - Throws: `DeliveryError` when the copier cannot be started, fails, or takes longer than `timeLimit`.
    init(_ bytes: [UInt8], program: HelperProgram, arguments: [String], environment: [String: String], timeLimit: Duration)
        async throws(DeliveryError)
    {
        let pipe = Pipe()
        let input: MemoryFile
        do { input = try MemoryFile(holding: bytes) } catch {
            throw DeliveryError("Could not prepare the text for \(program.name): \(error.description).")
        }
        let child: ChildProcess
        do {
            child = try ChildProcess(
                path: program.path, arguments: arguments,
                environment: environment.merging(["LC_ALL": "C.UTF-8"]) { _, utf8 in utf8 }, input: input.handle.fileDescriptor,
                output: pipe.fileHandleForWriting.fileDescriptor, errorOutput: pipe.fileHandleForWriting.fileDescriptor)
        } catch {
            throw DeliveryError("Could not start \(program.path): \(error.description).")
        }
        try? pipe.fileHandleForWriting.close()
        servingChild = pipe.fileHandleForReading
        guard let status = await child.ended(within: timeLimit) else {
            throw DeliveryError("\(program.name) did not put the text on the clipboard within \(timeLimit.inSeconds) and was stopped.")
        }
        guard status == 0 else {
            // No child was forked: what it wrote ends at once.
            let said = String(decoding: servingChild.readDataToEndOfFile().prefix(500), as: UTF8.self)
                .trimmingCharacters(in: .whitespacesAndNewlines)
            throw DeliveryError("\(program.name) could not put the text on the clipboard: \(said.isEmpty ? "exit status \(status)" : said)")
        }
    }

    /// Whether the paste was served within `timeLimit`. Waits on a thread of its own.
    func served(within timeLimit: Duration) async -> Bool {
        let deadline = ContinuousClock.now + timeLimit
        return await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
            Thread { [servingChild] in continuation.resume(returning: Self.endOfFile(of: servingChild, before: deadline)) }.start()
        }
    }

    private static func endOfFile(of handle: FileHandle, before deadline: ContinuousClock.Instant) -> Bool {
        defer { try? handle.close() }
        var buffer = [UInt8](repeating: 0, count: 512)
        while true {
            let milliseconds = (deadline - .now) / .milliseconds(1)
            guard milliseconds > 0 else { return false }
            var ready = pollfd(fd: handle.fileDescriptor, events: Int16(POLLIN), revents: 0)
            let polled = poll(&ready, 1, Int32(min(milliseconds.rounded(.up), Double(Int32.max))))
            if polled == -1 && errno == EINTR { continue }
            guard polled == 1 else { return false }
            // What the serving child writes (an error) is read past: only the end counts.
            let count = read(handle.fileDescriptor, &buffer, buffer.count)
            if count == 0 { return true }
            if count == -1 && errno != EINTR { return false }
        }
    }
}
