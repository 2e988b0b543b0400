import DBus
import FoundationEssentials
import NotulaContract

#if canImport(Glibc)
    import Glibc
#endif

/// `notula watch`: the live text of the recordings from now on, read from the pipe `WatchText` hands over. On a
/// terminal the guess is rewritten in place on its line and each utterance ends on a line of its own; elsewhere only
/// the utterances are printed; `--json` passes every line through.
struct TextWatch {
    let recorder: RecorderClient
    let json: Bool

    /// One line of the pipe; only what is shown is read.
    private struct Line: Decodable {
        let kind: String
        let text: String?
    }

    /// Reads until the pipe ends: notulad went away (exit 3), or cut this reader off (exit 1).
    func run() async throws(BusError) -> Never {
        let reply = try await recorder.call(.watchText)
        guard case .unixFD(let received)? = reply.body.first else {
            throw BusError(.failed, "notulad answered WatchText without a pipe")
        }
        // Ctrl-C is how a watch ends: that is success. Output is flushed at every line, so nothing is lost.
        signal(SIGINT) { _ in _exit(ExitStatus.success.rawValue) }
        let onTerminal = isatty(1) == 1
        var guessShown = false
        var pending: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(received.rawValue, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { break }
            pending += chunk[0..<count]
            while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                show(Array(pending[..<newline]), onTerminal: onTerminal, guessShown: &guessShown)
                pending.removeFirst(newline + 1)
            }
            fflush(nil)
        }
        if guessShown { print("") }
        // The pipe also ends when notulad cut a reader off for falling behind: then it is still there.
        if (try? await recorder.status(autoStart: false)) != nil {
            fail(.failure, "notulad stopped sending the live text: this reader fell behind")
        }
        fail(.notRunning, "notulad went away")
    }

    private func show(_ bytes: [UInt8], onTerminal: Bool, guessShown: inout Bool) {
        if json {
            print(String(decoding: bytes, as: UTF8.self))
            return
        }
        guard let line = try? JSONDecoder().decode(Line.self, from: Data(bytes)), let text = line.text else { return }
        switch line.kind {
        case "partial" where onTerminal:
            // Back to the line's start, the line cleared: the guess replaces the one before.
            print("\r\u{1B}[K\(text)", terminator: "")
            guessShown = true
        case "final" where text.isEmpty:
            // An utterance that came to nothing takes its guess back.
            if guessShown { print("\r\u{1B}[K", terminator: "") }
            guessShown = false
        case "final":
            print(onTerminal ? "\r\u{1B}[K\(text)" : text)
            guessShown = false
        default: break
        }
    }
}
