#if canImport(Glibc)
    import Glibc
#endif

/// CLOCK_MONOTONIC: the clock GLib's `g_get_monotonic_time` reads, so panels can count
/// up from `TimerAnchor` by themselves.
public struct MonotonicSystemClock: MonotonicClock {
    public init() {}
    public func now() -> Duration {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return .seconds(time.tv_sec) + .nanoseconds(time.tv_nsec)
    }
}

extension Duration {
    public var microseconds: Int64 { components.seconds * 1_000_000 + components.attoseconds / 1_000_000_000_000 }
    public var seconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
}
