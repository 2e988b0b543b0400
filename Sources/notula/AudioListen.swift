import DBus

#if canImport(Glibc)
    import Glibc
#endif

/// `notula listen`: the recordings' audio from now on, as `OpenAudio` gives it, on standard output for a program to
/// take (`notula listen | sox -t raw -r 16000 -e signed -b 16 -c 1 - out.flac`).
struct AudioListen {
    let recorder: RecorderClient
    let format: String

    /// Copies the pipe to standard output until it ends (exit 3 when notulad went away, 1 when it cut this reader off),
    /// the user interrupts (0) or the program reading standard output goes away (0).
    func run() async throws(BusError) -> Never {
        let stream = PipeStream(received: try await recorder.pipe(.openAudio, [.string(format)]), carrying: "the audio")
        // A reader of standard output that went away ends the listening, as `head` ends `cat`: with success.
        signal(SIGPIPE, SIG_IGN)
        stream.read { bytes in
            var offset = 0
            while offset < bytes.count {
                let written = bytes[offset...].withUnsafeBytes { write(1, $0.baseAddress, $0.count) }
                if written < 0, errno == EINTR { continue }
                guard written > 0 else { exit(errno == EPIPE ? ExitStatus.success.rawValue : ExitStatus.failure.rawValue) }
                offset += written
            }
        }
        await stream.ended(recorder)
    }
}
