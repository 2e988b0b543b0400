import Foundation

/// A null sink of its own on the test PulseAudio server: what is played into it is what a
/// recorder of its monitor hears, and no other test plays there.
///
/// A stream of silence keeps it busy at low latency the whole time, as a live microphone is,
/// and it is handed out once its monitor delivers audio as it is played (`waitUntilLive`).
public final class NullSink {
    public let name: String
    private let module: String
    private let silence: Process

    /// Made on a thread of its own: the monitor takes about 2 s to go live, and a test's tasks share as few threads as
    /// there are cores. Made on one of them, four suites' sinks held both for seconds, and another test's capture
    /// that had started recording resumed 1.49 s late.
    public init() async throws {
        let name = "notula_test_" + UUID().uuidString.prefix(8).lowercased()
        (module, silence) = try await onThreadOfItsOwn { try Self.startLive(name) }
        self.name = name
    }

    /// Loads the sink, plays silence into it, and returns once its monitor delivers it.
    private static func startLive(_ name: String) throws -> (module: String, silence: Process) {
        let result = try run("pactl", ["load-module", "module-null-sink", "sink_name=\(name)", "rate=16000", "channels=1"])
        guard result.status == 0 else { throw SinkError(message: result.errorOutput) }
        let silence = Process()
        silence.executableURL = URL(fileURLWithPath: "/usr/bin/pacat")
        silence.arguments = [
            "--playback", "--device=\(name)", "--latency-msec=20", "--raw", "--format=s16le", "--rate=16000", "--channels=1",
            "/dev/zero",
        ]
        try silence.run()
        try waitUntilLive(name + ".monitor")
        return (result.output.trimmingCharacters(in: .whitespacesAndNewlines), silence)
    }

    /// The source a recorder records from.
    public var monitor: String { name + ".monitor" }

    /// Plays a WAV file into the sink; returns when it has been played, holding no thread meanwhile.
    public func play(_ file: String) async throws { try await startPlaying(file).end() }

    /// Starts playing a WAV file into the sink; its `end` is awaited without holding a thread, which the
    /// code under test needs: Swift's tasks share as few threads as there are cores.
    public func startPlaying(_ file: String) throws -> Playing {
        let paplay = Process()
        paplay.executableURL = URL(fileURLWithPath: "/usr/bin/paplay")
        paplay.arguments = ["--device=\(name)", "--latency-msec=20", file]
        let (exits, exit) = AsyncStream.makeStream(of: Int32.self)
        paplay.terminationHandler = {
            exit.yield($0.terminationStatus)
            exit.finish()
        }
        try paplay.run()
        return Playing(exit: Task { await exits.first { _ in true } ?? -1 })
    }

    /// Returns once the sink's monitor hears more than `level` (of 32767), reading it on a thread of its own.
    public func heard(louderThan level: Int16) async throws { try await startListening(louderThan: level).value }

    /// Listens to the sink's monitor, on a thread of its own, for what is played next: returns once the monitor
    /// delivers audio, with the task that ends when it hears more than `level`.
    public func startListening(louderThan level: Int16) async -> Task<Void, any Error> {
        let monitor = monitor
        // First the monitor's first audio (or the failure to hear any), then the loud sound's.
        let (events, event) = AsyncStream.makeStream(of: Result<Void, any Error>.self)
        Thread {
            event.yield(Result { try waitUntil(monitor, hearsLouderThan: level, live: { event.yield(.success(())) }) })
            event.finish()
        }.start()
        var iterator = events.makeAsyncIterator()
        let live = await iterator.next()
        let rest = iterator
        return Task {
            var rest = rest
            try live?.get()
            try await rest.next()?.get()
        }
    }

    deinit {
        kill(silence.processIdentifier, SIGKILL)
        silence.waitUntilExit()
        _ = try? run("pactl", ["unload-module", module])
    }
}

public struct SinkError: Error { public let message: String }

/// A WAV file being played into a sink.
public struct Playing: Sendable {
    let exit: Task<Int32, Never>

    /// Returns once it has been played.
    public func end() async throws {
        let status = await exit.value
        guard status == 0 else { throw SinkError(message: "paplay ended with \(status)") }
    }
}

/// Runs `work` on a thread of its own, and awaits it without holding one of the tasks' threads.
func onThreadOfItsOwn<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread { continuation.resume(with: Result { try work() }) }.start()
    }
}

/// Returns once `monitor` delivers audio as it is played (the first 100 ms a probe receives): a
/// sink just made, or idle, has rendered ahead, and a recorder joining it would miss up to that much.
func waitUntilLive(_ monitor: String, environment: [String: String]? = nil) throws {
    var received = 0
    try listen(to: monitor, environment: environment) { chunk in
        received += chunk.count
        return received >= 3200
    }
}

/// Returns once `monitor` hears more than `level` (of 32767): paplay can take seconds to start
/// on a loaded machine. Gives up after `seconds` of audio.
/// `live` is told at the first audio.
private func waitUntil(_ monitor: String, hearsLouderThan level: Int16, seconds: Int = 30, live: () -> Void = {}) throws {
    var heard = 0
    var loud = false
    try listen(to: monitor) { chunk in
        if heard == 0 { live() }
        heard += chunk.count
        loud = chunk.withUnsafeBytes { $0.bindMemory(to: Int16.self).contains { abs(Int($0)) > Int(level) } }
        return loud || heard >= seconds * 32000
    }
    guard loud else { throw SinkError(message: "nothing louder than \(level) reached \(monitor) in \(seconds) s") }
}

/// Reads `monitor` as a recorder would, chunk by chunk, until `isEnough` says so.
private func listen(to monitor: String, environment: [String: String]? = nil, until isEnough: (Data) -> Bool) throws {
    let probe = Process()
    probe.executableURL = URL(fileURLWithPath: "/usr/bin/parec")
    probe.arguments = ["--device=\(monitor)", "--latency-msec=20", "--raw", "--format=s16le", "--rate=16000", "--channels=1"]
    if let environment { probe.environment = environment }
    let output = Pipe()
    probe.standardOutput = output
    try probe.run()
    defer {
        kill(probe.processIdentifier, SIGKILL)
        probe.waitUntilExit()
    }
    while true {
        guard let chunk = try output.fileHandleForReading.read(upToCount: 3200), !chunk.isEmpty else {
            throw SinkError(message: "the monitor \(monitor) delivered no audio")
        }
        if isEnough(chunk) { return }
    }
}

/// Speech made by espeak-ng in `voice`, as a WAV file.
public func speech(_ text: String, voice: String = "en") throws -> String {
    let file = FileManager.default.temporaryDirectory.appendingPathComponent("notula-speech-\(UUID().uuidString).wav").path
    let result = try run("espeak-ng", ["-v", voice, "-w", file, text])
    guard result.status == 0 else { throw SinkError(message: result.errorOutput) }
    return file
}

/// A sound sox makes from nothing — `["synth", "3", "pinknoise", "vol", "0.05"]` — the same on every run, as a WAV file.
public func synthesized(_ effects: [String]) throws -> String {
    let file = FileManager.default.temporaryDirectory.appendingPathComponent("notula-sound-\(UUID().uuidString).wav").path
    let result = try run("sox", ["-R", "-n", "-r", "16000", "-c", "1", "-b", "16", "-e", "signed-integer", file] + effects)
    guard result.status == 0 else { throw SinkError(message: result.errorOutput) }
    return file
}

/// Digital silence made by sox, as a WAV file.
public func silence(seconds: Double) throws -> String {
    let file = FileManager.default.temporaryDirectory.appendingPathComponent("notula-silence-\(UUID().uuidString).wav").path
    try output(of: "sox", "-n", "-r", "16000", "-c", "1", "-b", "16", file, "trim", "0", "\(seconds)")
    return file
}
