import Synchronization

/// Lets a progress report through at most four times a second: more is noise to every listener on the bus.
final class ProgressThrottle: Sendable {
    private static let interval = Duration.milliseconds(250)
    private let last = Mutex<ContinuousClock.Instant?>(nil)

    /// Whether a report now is let through; one is, the first time.
    func allows() -> Bool {
        let now = ContinuousClock.now
        return last.withLock { last in
            if let last, now - last < Self.interval { return false }
            last = now
            return true
        }
    }
}
