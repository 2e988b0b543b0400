#if canImport(Glibc)
    import Glibc
#endif

/// A wall-clock time of day, as the live notification says when a recording started ("14:03", "09:05").
public struct ClockTime: Sendable, Equatable, CustomStringConvertible {
    public let hour: Int
    public let minute: Int

    public init(hour: Int, minute: Int) {
        self.hour = hour
        self.minute = minute
    }

    public var description: String { twoDigits(hour) + ":" + twoDigits(minute) }

    private func twoDigits(_ number: Int) -> String { (number < 10 ? "0" : "") + String(number) }

    /// The local time now, in the user's time zone.
    @Sendable public static func now() -> ClockTime {
        var seconds = time(nil)
        var local = tm()
        localtime_r(&seconds, &local)
        return ClockTime(hour: Int(local.tm_hour), minute: Int(local.tm_min))
    }
}
