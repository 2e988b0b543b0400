import DBus
import Foundation
import NotulaContract

/// Round trips to notulad against the bus's own floor, and what the idle service costs.
enum RoundTrips {
    static let calls = 2000
    static let idleWindow: Duration = .seconds(10)

    private static let daemon = MethodCall(
        destination: "org.freedesktop.DBus", path: ObjectPath("/org/freedesktop/DBus")!, interface: "org.freedesktop.DBus",
        member: "GetId")
    private static let getState = MethodCall(
        destination: NotulaBus.name, path: NotulaBus.recorderPath, interface: "org.freedesktop.DBus.Properties",
        member: "Get", arguments: [.string(NotulaBus.recorderInterface.rawValue), .string(NotulaBus.Recorder.Property.state.rawValue)])
    private static let toggle = LaunchedService.recorderCall(.toggle)
    private static let pause = LaunchedService.recorderCall(.pause)
    private static let discard = LaunchedService.recorderCall(.discard)

    /// Measures a `notulad` of its own, recording from the default source, and returns the report's section.
    ///
    /// Its cache holds a catalog fetched just now, as on any day after the first start; the first start, which
    /// fetches one, is measured apart before (`FirstStart`).
    static func run(_ notulad: String, home: URL, bus: Bus) async throws -> String {
        let rssAtFirstStart = try await FirstStart.measure(notulad, home: home.appendingPathComponent("first-start"), bus: bus).rssKilobytes
        let cache = home.appendingPathComponent("cache/notula")
        try FileManager.default.createDirectory(at: cache, withIntermediateDirectories: true)
        try Data("[]".utf8).write(to: cache.appendingPathComponent("model-list.json"))
        let service = try await LaunchedService.start(notulad, home: home, bus: bus)
        let rssAtStart = residentKilobytes(service.pid)
        // Phase 1, not recording: GetId, Get(State).
        let quiet = try await measureInterleaved([daemon, getState], rounds: calls, service: service.pid, bus: bus)
        _ = try await bus.call(toggle)  // idle → recording: opens the microphone; the toggles then pause and resume
        // Phase 2, recording. One round: GetId, Get(State), Toggle (→ paused), Pause (already paused:
        // no effect), Toggle (→ recording).
        let busy = try await measureInterleaved([daemon, getState, toggle, pause, toggle], rounds: calls, service: service.pid, bus: bus)
        let floor = busy.latencies[0]
        let toggles = Latencies(merging: busy.latencies[2], busy.latencies[4])
        _ = try await bus.call(discard)

        // The discard's own work (closing the capture) ends within the second before the window opens.
        try await Task.sleep(for: .seconds(1))
        let before = sample(service.pid)
        try await Task.sleep(for: idleWindow)  // the measuring window itself
        let after = sample(service.pid)
        try await service.stop()

        let idleCPU = Double(after.cpuNanoseconds - before.cpuNanoseconds)
        return """
            # notula-bench: \(calls) rounds of sequential calls, then \(idleWindow) idle

            Calls are interleaved in rounds, so that the floor and each call meet the machine in the same state.

            | not recording | median µs | p99 µs | calls/s | median ÷ floor |
            |---|---|---|---|---|
            \(row("GetId (dbus-daemon, the floor)", quiet.latencies[0], quiet.latencies[0]))
            \(row("Get(State)", quiet.latencies[1], quiet.latencies[0]))

            notulad's CPU time per call answered: \(cpu(quiet, calls: 1)) µs.

            | recording (capture running) | median µs | p99 µs | calls/s | median ÷ floor |
            |---|---|---|---|---|
            \(row("GetId (dbus-daemon, the floor)", floor, floor))
            \(row("Get(State)", busy.latencies[1], floor))
            \(row("Toggle (pause ⇄ resume)", toggles, floor))
            \(row("Pause while paused (no effect)", busy.latencies[3], floor))

            notulad's CPU time per call answered, its capture's included: \(cpu(busy, calls: 4)) µs.

            | idle service over \(idleWindow) | value |
            |---|---|
            | CPU time | \(fixed(idleCPU / 1e6, 3)) ms (\(fixed(idleCPU / 1e9 / idleWindow.seconds * 100, 4)) %) |
            | wake-ups (context switches of the threads alive throughout) | \(after.switchesByThread.reduce(0) { $0 + $1.value - (before.switchesByThread[$1.key] ?? $1.value) }) |
            | threads that ended in the window (libdispatch retires an idle pool thread once) | \(Set(before.switchesByThread.keys).subtracting(after.switchesByThread.keys).count) |
            | RSS at a first start (empty cache: the catalog fetched), 1 s after the fetch | \(rssAtFirstStart / 1024) MB (\(rssAtFirstStart) kB) |
            | RSS at start, before any call | \(rssAtStart / 1024) MB (\(rssAtStart) kB) |
            | RSS after the calls and a recording | \(after.rssKilobytes / 1024) MB (\(after.rssKilobytes) kB) |
            | threads | \(after.threads) |
            """
    }

    private struct Phase {
        let latencies: [Latencies]
        /// notulad's CPU time (all threads) over the phase, in ns.
        let cpuNanoseconds: Int
    }

    /// notulad's CPU time per call it answered, in µs.
    private static func cpu(_ phase: Phase, calls perRound: Int) -> String {
        fixed(Double(phase.cpuNanoseconds) / 1000 / Double(calls * perRound), 0)
    }

    /// Each call of `round` in turn, `rounds` times: the latencies of each call, and notulad's CPU time.
    private static func measureInterleaved(_ round: [MethodCall], rounds: Int, service: pid_t, bus: Bus) async throws -> Phase {
        for _ in 0..<50 { for call in round { _ = try await bus.call(call) } }  // warm-up
        var samples = Array(repeating: [Duration](), count: round.count)
        let before = sample(service).cpuNanoseconds
        for _ in 0..<rounds {
            for (index, call) in round.enumerated() {
                samples[index].append(try await timed { try await bus.call(call) }.duration)
            }
        }
        return Phase(latencies: samples.map(Latencies.init), cpuNanoseconds: sample(service).cpuNanoseconds - before)
    }

    private static func row(_ name: String, _ latencies: Latencies, _ floor: Latencies) -> String {
        "| \(name) | \(fixed(microseconds(latencies.median), 1)) | \(fixed(microseconds(latencies.p99), 1)) | \(Int(latencies.perSecond)) | \(fixed(microseconds(latencies.median) / microseconds(floor.median), 2)) |"
    }
}
