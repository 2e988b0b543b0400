/// A monotonic clock read as the time since its own fixed origin.
///
/// Injected so that tests advance time by hand; the service's clock reads CLOCK_MONOTONIC,
/// the origin panels measure `TimerAnchor` against.
public protocol MonotonicClock: Sendable {
    func now() -> Duration
}

/// Recorded time without counted ticks: the start of the current stretch is an anchor on the
/// clock, and pausing folds the stretch into the accumulated duration, so no drift builds up.
struct RecordingTimer {
    private var accumulated: Duration = .zero
    private var stretchStart: Duration?

    mutating func run(at now: Duration) {
        if stretchStart == nil { stretchStart = now }
    }

    mutating func pause(at now: Duration) {
        guard let start = stretchStart else { return }
        accumulated += now - start
        stretchStart = nil
    }

    mutating func reset() { self = RecordingTimer() }

    /// Counts `duration` less, as if the recording had begun that much later.
    mutating func drop(_ duration: Duration) { accumulated -= duration }

    func elapsed(at now: Duration) -> Duration {
        accumulated + (stretchStart.map { now - $0 } ?? .zero)
    }

    /// While running: the clock reading from which a timer counting up shows the elapsed time.
    var anchor: Duration? { stretchStart.map { $0 - accumulated } }
}
