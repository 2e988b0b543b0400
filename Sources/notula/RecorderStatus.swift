import DBus
import FoundationEssentials
import NotulaContract

#if canImport(Glibc)
    import Glibc
#endif

/// The recorder as a status line shows it: what the service last said, and, while recording, the
/// elapsed time counted on this side from `TimerAnchor` (no traffic from the service).
struct RecorderStatus: Equatable {
    /// idle, recording, paused, processing; `not-running` while no notulad owns the name.
    var state: String
    /// Seconds recorded, as of the service's last report.
    var elapsed: Double
    /// While recording, the CLOCK_MONOTONIC time in µs from which the elapsed time counts up; 0 otherwise.
    var timerAnchor: Int64
    var locale: String

    static let notRunning = RecorderStatus(state: "not-running", elapsed: 0, timerAnchor: 0, locale: "")

    init(state: String, elapsed: Double, timerAnchor: Int64, locale: String) {
        self.state = state
        self.elapsed = elapsed
        self.timerAnchor = timerAnchor
        self.locale = locale
    }

    /// From the recorder's properties (`GetAll`).
    init(properties: [String: Variant]) {
        self = .init(state: "unknown", elapsed: 0, timerAnchor: 0, locale: "")
        apply(properties)
    }

    /// Takes in what a `PropertiesChanged` says changed; the rest stays as it was.
    mutating func apply(_ changed: [String: Variant]) {
        typealias Property = NotulaBus.Recorder.Property
        if let state = try? changed[Property.state.rawValue]?.get(String.self) { self.state = state }
        if let elapsed = try? changed[Property.elapsed.rawValue]?.get(Double.self) { self.elapsed = elapsed }
        if let anchor = try? changed[Property.timerAnchor.rawValue]?.get(Int64.self) { timerAnchor = anchor }
        if let locale = try? changed[Property.locale.rawValue]?.get(String.self) { self.locale = locale }
    }

    /// Whether the elapsed time grows by itself, so that a feed shows it ticking.
    var isCounting: Bool { state == "recording" && timerAnchor > 0 }

    /// Seconds recorded at `now`, a CLOCK_MONOTONIC reading in µs.
    func elapsed(at now: Int64) -> Double {
        isCounting ? max(Double(now - timerAnchor) / 1_000_000, 0) : elapsed
    }

    /// Microseconds from `now` to the next whole second recorded, when the shown time changes.
    func untilNextSecond(from now: Int64) -> Int64 {
        1_000_000 - (now - timerAnchor) % 1_000_000
    }

    /// The time in tenths, rounded down, as every line shows it: never ahead of the service's own count.
    static func tenths(_ seconds: Double) -> Int { Int((seconds * 10).rounded(.down)) }
}

/// The CLOCK_MONOTONIC time in µs, the clock `TimerAnchor` is read on (GLib's `g_get_monotonic_time`).
func monotonicMicroseconds() -> Int64 {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return Int64(time.tv_sec) * 1_000_000 + Int64(time.tv_nsec) / 1000
}
