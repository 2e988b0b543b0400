import DBus
import Foundation

// `make bench`: round trips to notulad against the bus's own floor, and what the idle service
// costs. A report, not a test: it prints figures and ratios from one run.

let calls = 2000
let idleWindow: Duration = .seconds(10)

guard CommandLine.arguments.count == 2 else {
    print("Usage: notula-bench PATH_TO_NOTULAD  (under a session bus and a PulseAudio server)")
    exit(2)
}

let bus = try await Bus.connect(.session)
let home = FileManager.default.temporaryDirectory.appendingPathComponent("notula-bench-\(UUID().uuidString)")
try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(at: home) }

let service = try await launchService(CommandLine.arguments[1], home: home, bus: bus)
defer { kill(service, SIGTERM) }

let daemon = MethodCall(
    destination: "org.freedesktop.DBus", path: ObjectPath("/org/freedesktop/DBus")!, interface: "org.freedesktop.DBus", member: "GetId")
let recorder = ObjectPath("/org/notula/Notula1/Recorder")!
let getState = MethodCall(
    destination: "org.notula.Notula1", path: recorder, interface: "org.freedesktop.DBus.Properties", member: "Get",
    arguments: [.string("org.notula.Notula1.Recorder"), .string("State")])
let toggle = MethodCall(destination: "org.notula.Notula1", path: recorder, interface: "org.notula.Notula1.Recorder", member: "Toggle")

let pause = MethodCall(destination: "org.notula.Notula1", path: recorder, interface: "org.notula.Notula1.Recorder", member: "Pause")

let rssAtStart = residentKilobytes(service)
// Phase 1, not recording: GetId, Get(State).
let quiet = try await measureInterleaved([daemon, getState], rounds: calls, service: service)
_ = try await bus.call(toggle)  // idle → recording: opens the microphone; the toggles then pause and resume
// Phase 2, recording. One round: GetId, Get(State), Toggle (→ paused), Pause (already paused:
// no effect), Toggle (→ recording).
let busy = try await measureInterleaved([daemon, getState, toggle, pause, toggle], rounds: calls, service: service)
let floor = busy.latencies[0]
let toggles = Latencies(merging: busy.latencies[2], busy.latencies[4])
_ = try await bus.call(
    MethodCall(destination: "org.notula.Notula1", path: recorder, interface: "org.notula.Notula1.Recorder", member: "Discard"))

// The discard's own work (closing the capture) ends within the second before the window opens.
try await Task.sleep(for: .seconds(1))
let before = sample(service)
try await Task.sleep(for: idleWindow)  // the measuring window itself
let after = sample(service)

print(
    """
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
    | CPU time | \(String(format: "%.3f", Double(after.cpuNanoseconds - before.cpuNanoseconds) / 1e6)) ms (\(String(format: "%.4f", Double(after.cpuNanoseconds - before.cpuNanoseconds) / 1e9 / idleWindow.seconds * 100)) %) |
    | wake-ups (context switches of the threads alive throughout) | \(after.switchesByThread.reduce(0) { $0 + $1.value - (before.switchesByThread[$1.key] ?? $1.value) }) |
    | threads that ended in the window (libdispatch retires an idle pool thread once) | \(Set(before.switchesByThread.keys).subtracting(after.switchesByThread.keys).count) |
    | RSS at start, before any call | \(rssAtStart / 1024) MB (\(rssAtStart) kB) |
    | RSS after the calls and a recording | \(after.rssKilobytes / 1024) MB (\(after.rssKilobytes) kB) |
    | threads | \(after.threads) |
    """)

// MARK: -

struct Latencies {
    let sorted: [Duration]
    var median: Duration { sorted[sorted.count / 2] }
    var p99: Duration { sorted[sorted.count * 99 / 100] }
    let total: Duration
}

extension Latencies {
    init(_ samples: [Duration]) {
        sorted = samples.sorted()
        total = samples.reduce(.zero, +)
    }
    init(merging a: Latencies, _ b: Latencies) { self.init(a.sorted + b.sorted) }
    var perSecond: Double { Double(sorted.count) / (microseconds(total) / 1e6) }
}

struct Phase {
    let latencies: [Latencies]
    /// notulad's CPU time (all threads) over the phase, in ns.
    let cpuNanoseconds: Int
}

/// notulad's CPU time per call it answered, in µs.
func cpu(_ phase: Phase, calls perRound: Int) -> String {
    String(format: "%.0f", Double(phase.cpuNanoseconds) / 1000 / Double(calls * perRound))
}

/// Each call of `round` in turn, `rounds` times: the latencies of each call, and notulad's CPU time.
func measureInterleaved(_ round: [MethodCall], rounds: Int, service: pid_t) async throws -> Phase {
    let clock = ContinuousClock()
    for _ in 0..<50 { for call in round { _ = try await bus.call(call) } }  // warm-up
    var samples = Array(repeating: [Duration](), count: round.count)
    let before = sample(service).cpuNanoseconds
    for _ in 0..<rounds {
        for (index, call) in round.enumerated() {
            let begin = clock.now
            _ = try await bus.call(call)
            samples[index].append(clock.now - begin)
        }
    }
    return Phase(latencies: samples.map(Latencies.init), cpuNanoseconds: sample(service).cpuNanoseconds - before)
}

extension Duration {
    var seconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
}

func microseconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) * 1e6 + Double(duration.components.attoseconds) / 1e12
}

func row(_ name: String, _ latencies: Latencies, _ floor: Latencies) -> String {
    return
        "| \(name) | \(String(format: "%.1f", microseconds(latencies.median))) | \(String(format: "%.1f", microseconds(latencies.p99))) | \(Int(latencies.perSecond)) | \(String(format: "%.2f", microseconds(latencies.median) / microseconds(floor.median))) |"
}

struct ProcessSample {
    /// User and system CPU time of all threads, ended ones included, in ns (10 ms ticks).
    let cpuNanoseconds: Int
    /// Context switches of each thread alive at the moment of the sample.
    let switchesByThread: [String: Int]
    let rssKilobytes: Int
    let threads: Int
}

func sample(_ pid: pid_t) -> ProcessSample {
    let stat = (try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)) ?? ""
    let fields = stat.split(separator: ")").last?.split(separator: " ") ?? []
    let ticks = fields.count > 12 ? (Int(fields[11]) ?? 0) + (Int(fields[12]) ?? 0) : 0
    let nanoseconds = ticks * 1_000_000_000 / sysconf(Int32(_SC_CLK_TCK))
    let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
    let switches = Dictionary(
        uniqueKeysWithValues: tasks.map { task in
            let status = (try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/status", encoding: .utf8)) ?? ""
            return (task, field("voluntary_ctxt_switches", status) + field("nonvoluntary_ctxt_switches", status))
        })
    return ProcessSample(
        cpuNanoseconds: nanoseconds, switchesByThread: switches, rssKilobytes: residentKilobytes(pid), threads: tasks.count)
}

func residentKilobytes(_ pid: pid_t) -> Int {
    field("VmRSS", (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? "")
}

func field(_ name: String, _ status: String) -> Int {
    for line in status.split(separator: "\n") where line.hasPrefix(name + ":") {
        return Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "") ?? 0
    }
    return 0
}

func launchService(_ path: String, home: URL, bus: Bus) async throws -> pid_t {
    let owners = try await bus.signals(
        matching: MatchRule(
            sender: "org.freedesktop.DBus", interface: "org.freedesktop.DBus", member: "NameOwnerChanged", arg0: "org.notula.Notula1"))
    let process = Process()
    process.executableURL = URL(fileURLWithPath: path)
    var environment = ProcessInfo.processInfo.environment
    environment["XDG_DATA_HOME"] = home.appendingPathComponent("data").path
    environment["XDG_CONFIG_HOME"] = home.appendingPathComponent("config").path
    process.environment = environment
    try process.run()
    for await message in owners where (try? message.argument(2, as: String.self))?.isEmpty == false { break }
    return process.processIdentifier
}
