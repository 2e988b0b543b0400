import DBus

#if canImport(Glibc)
    import Glibc
#endif

/// A pipe notulad hands over (`WatchText`, `OpenAudio`), read as it comes until it ends.
struct PipeStream {
    let received: FileDescriptor
    /// What it carries, for the message when it ends: "the live text".
    let carrying: String

    /// Hands each read's bytes to `take` until the pipe ends. Ctrl-C is how a reading ends: that is success.
    func read(_ take: ([UInt8]) -> Void) {
        signal(SIGINT) { _ in _exit(ExitStatus.success.rawValue) }
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(received.rawValue, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return }
            take(Array(chunk[0..<count]))
        }
    }

    /// The pipe ended: notulad went away (exit 3), or cut this reader off for falling behind (exit 1).
    func ended(_ recorder: RecorderClient) async -> Never {
        if (try? await recorder.status(autoStart: false)) != nil {
            fail(.failure, "notulad stopped sending \(carrying): this reader fell behind")
        }
        fail(.notRunning, "notulad went away")
    }
}
