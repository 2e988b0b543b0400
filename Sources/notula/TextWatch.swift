import DBus
import FoundationEssentials
import NotulaContract

#if canImport(Glibc)
    import Glibc
#endif

/// `notula watch`: the live text of the recordings from now on, read from the pipe `WatchText` hands over. On a
/// terminal the guess is rewritten in place on its line and each utterance ends on a line of its own; elsewhere only
/// the utterances are printed; `--json` passes every line through. Whisper's text of an utterance (a `revised` line)
/// follows on a line of its own, marked `»`: with Whisper alone, it is the only text.
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
        let stream = PipeStream(received: try await recorder.pipe(.watchText), carrying: "the live text")
        let onTerminal = isatty(1) == 1
        var guessShown = false
        var pending: [UInt8] = []
        stream.read { bytes in
            pending += bytes
            while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                show(Array(pending[..<newline]), onTerminal: onTerminal, guessShown: &guessShown)
                pending.removeFirst(newline + 1)
            }
            // Output is flushed at every read, so a Ctrl-C loses nothing.
            fflush(nil)
        }
        if guessShown { print("") }
        await stream.ended(recorder)
    }

    private func show(_ bytes: [UInt8], onTerminal: Bool, guessShown: inout Bool) {
        if json {
            print(TerminalText.safeJSON(String(decoding: bytes, as: UTF8.self)))
            return
        }
        guard let line = try? JSONDecoder().decode(Line.self, from: Data(bytes)), let text = line.text.map({ TerminalText.safe($0) })
        else { return }
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
        case "revised" where !text.isEmpty:
            // Guesses are Vosk's: none is shown while Whisper writes.
            print((onTerminal && guessShown ? "\n" : "") + "» " + text)
            guessShown = false
        default: break
        }
    }
}
