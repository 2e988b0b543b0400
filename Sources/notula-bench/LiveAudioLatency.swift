import DBus
import Foundation
import NotulaContract
import NotulaTestSupport
import Synchronization

/// How soon a sound reaches an `OpenAudio` reader, beside PulseAudio's own recorder (`parec`, 10 ms of latency asked)
/// reading the same source at the same time, and what two readers cost notulad.
///
/// The audio is 60 tone bursts of 50 ms, 0.5 s apart. A burst is seen when the first chunk holding its onset (a sample
/// above 8000 after 0.2 s below it) is read; its latency is when notulad's reader saw it less when parec's did.
enum LiveAudioLatency {
    static func run(notulad: String, home: URL, bus: Bus, modelPath: String) async throws -> String {
        let sink = try await NullSink()
        let service = try await LaunchedService.startTranscribingKorean(notulad, home: home, bus: bus, modelPath: modelPath, sink: sink)
        try await service.pickLocaleAndWaitForModel("ko-KR")
        let bursts = try AudioFile(burstsFile(in: home))

        progress("recording \(fixed(bursts.seconds, 0)) s of tone bursts with nobody reading the audio")
        let before = sample(service.pid).cpuNanoseconds
        _ = try await service.dictate(bursts, through: sink)
        let alone = sample(service.pid).cpuNanoseconds - before

        progress("recording them again with two readers, and parec beside")
        let timed = try await OnsetWatch.reading(try openAudio("s16le", bus: bus))
        let other = try await OnsetWatch.reading(try openAudio("f32le", bus: bus))
        let (parec, parecOutput) = try spawnReading(
            ["/usr/bin/parec", "--device=\(sink.monitor)", "--format=s16le", "--rate=16000", "--channels=1", "--raw", "--latency-msec=10"],
            environment: ProcessInfo.processInfo.environment)
        let peer = try await OnsetWatch.reading(parecOutput)
        let again = sample(service.pid).cpuNanoseconds
        _ = try await service.dictate(bursts, through: sink)
        let followed = sample(service.pid).cpuNanoseconds - again
        // SIGKILL: the spawning thread may block SIGTERM, and the child inherits the mask.
        kill(parec, SIGKILL)
        var status: Int32 = 0
        waitpid(parec, &status, 0)
        close(parecOutput)
        try await service.stop()
        close(other.descriptor)

        let ours = timed.onsets(), theirs = peer.onsets()
        // Each of notulad's onsets against parec's nearest one: a burst parec saw before the recording started has none.
        let latencies = ours.compactMap { seen in theirs.min { abs($0 - seen) < abs($1 - seen) }.map { seen - $0 } }
            .filter { abs($0) < 0.25 }
        return """
            ## Live audio: from the source to an `OpenAudio` reader

            \(fixed(bursts.seconds, 0)) s of 50 ms tone bursts played into notulad's source and read at once by an `s16le` \
            reader of notulad's and by PulseAudio's `parec` (10 ms of latency asked): a burst's latency is when the \
            reader saw its onset less when parec did, \(latencies.count) bursts of \(ours.count) seen.

            | | median | p99 |
            |---|---|---|
            | notulad's reader after parec | \(fixed(median(latencies) * 1000, 1)) ms | \(fixed(percentile(99, latencies) * 1000, 1)) ms |

            notulad's CPU over the recording: \(fixed(Double(alone) / 1e9, 2)) s with no reader, \
            \(fixed(Double(followed) / 1e9, 2)) s with two (`s16le` and `f32le`): \
            **\(fixed((Double(followed) / Double(max(alone, 1)) - 1) * 100, 1)) %** (ticks of 10 ms; one run each).
            """
    }

    private static func openAudio(_ form: String, bus: Bus) async throws -> Int32 {
        let reply = try await bus.call(
            MethodCall(
                destination: NotulaBus.name, path: NotulaBus.recorderPath, interface: NotulaBus.recorderInterface,
                member: NotulaBus.Recorder.Method.openAudio.rawValue, arguments: [.string(form)]))
        guard case .unixFD(let received)? = reply.body.first else { throw NoPipe() }
        return dup(received.rawValue)
    }

    private static func burstsFile(in home: URL) throws -> String {
        let file = home.appendingPathComponent("bursts.wav").path
        try output(
            of: "sox", "-n", "-r", "16000", "-c", "1", "-b", "16", file, "synth", "0.05", "sine", "1000", "pad", "0", "0.45", "repeat", "59"
        )
        return file
    }
}

/// Reads 16-bit samples from a descriptor on a thread of its own, noting the CLOCK_MONOTONIC second at which each
/// burst's onset was read.
private final class OnsetWatch: Sendable {
    let descriptor: Int32
    private let seen = Mutex<[Double]>([])

    private init(_ descriptor: Int32) { self.descriptor = descriptor }

    static func reading(_ descriptor: Int32) async throws -> OnsetWatch {
        let watch = OnsetWatch(descriptor)
        Thread.detachNewThread { watch.read() }
        return watch
    }

    func onsets() -> [Double] { seen.withLock { $0 } }

    private func read() {
        var chunk = [UInt8](repeating: 0, count: 8192)
        var quiet = 0
        var odd: UInt8?
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return }
            let now = Double(monotonicMicroseconds()) / 1e6
            var bytes = Array(chunk[0..<count])
            if let first = odd { bytes.insert(first, at: 0) }
            odd = bytes.count % 2 == 1 ? bytes.removeLast() : nil
            var onset = false
            for offset in stride(from: 0, to: bytes.count, by: 2) {
                let value = Int16(bitPattern: UInt16(bytes[offset]) | UInt16(bytes[offset + 1]) << 8)
                if abs(Int(value)) > 8000 {
                    if quiet >= 3200 { onset = true }
                    quiet = 0
                } else {
                    quiet += 1
                }
            }
            if onset { seen.withLock { $0.append(now) } }
        }
    }
}

private struct NoPipe: Error {}
