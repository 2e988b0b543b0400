import Foundation
import Glibc
import NotulaTestSupport

/// What a sink's monitor hears from now on, as parec writes it to a file.
final class SinkRecording {
    private let file = FileManager.default.temporaryDirectory.appendingPathComponent("notula-heard-\(UUID().uuidString).raw")
    private let listener = Process()

    init(_ speaker: NullSink) throws {
        _ = FileManager.default.createFile(atPath: file.path, contents: nil)
        listener.executableURL = URL(fileURLWithPath: "/usr/bin/parec")
        listener.arguments = ["--device=\(speaker.monitor)", "--format=s16le", "--rate=16000", "--channels=1", "--latency-msec=20"]
        listener.environment = ProcessInfo.processInfo.environment
        listener.standardOutput = try FileHandle(forWritingTo: file)
        try listener.run()
    }

    /// The samples heard so far.
    func samples() throws -> [Int16] {
        try Data(contentsOf: file).withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }
    }

    /// Returns once `count` samples were heard: the sink's own clock, for what must hold over time.
    func waitUntilHeard(samples count: Int) async throws {
        try await poll(within: .seconds(10), until: { try self.samples().count >= count }) { MissingOutput() }
    }

    // parec does not end on SIGTERM while its stream is connected; what it wrote is on disk either way.
    deinit {
        if listener.isRunning {
            kill(listener.processIdentifier, SIGKILL)
            listener.waitUntilExit()
        }
        try? FileManager.default.removeItem(at: file)
    }
}
