import Foundation

/// A source that delivers nothing until the test feeds it, as a Bluetooth headset delivers nothing for
/// a second or more while it switches to its headset profile: PulseAudio's pipe source, read from a FIFO
/// the test holds open (with no writer it would make up silence).
public final class LateSource: Sendable {
    public let name: String
    private let writer: FileHandle

    /// Adds the source `name` to `server`.
    public init(on server: PrivateSoundServer, name: String = "late") throws {
        self.name = name
        let fifo = server.folder.appendingPathComponent("\(name).fifo").path
        try server.pactl(
            "load-module", "module-pipe-source", "source_name=\(name)", "file=\(fifo)", "format=s16le", "rate=16000", "channels=1")
        guard let writer = FileHandle(forWritingAtPath: fifo) else { throw SinkError(message: "Cannot open \(fifo) for writing") }
        self.writer = writer
    }

    /// Feeds `seconds` of silence in blocks of 20 ms, at the pace a microphone delivers them.
    public func feed(seconds: Double) async throws {
        let block = Data(count: 640)
        let start = ContinuousClock.now
        for index in 1...Int(seconds * 50) {
            try writer.write(contentsOf: block)
            try await Task.sleep(until: start + .milliseconds(20 * index))
        }
    }

    deinit { try? writer.close() }
}

/// CLOCK_MONOTONIC in microseconds, the clock `TimerAnchor` is read against.
public func monotonicMicroseconds() -> Int64 {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return Int64(now.tv_sec) * 1_000_000 + Int64(now.tv_nsec) / 1000
}
