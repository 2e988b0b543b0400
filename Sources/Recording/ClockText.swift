/// A length in whole seconds as a clock shows it: `0:07`, `12:34`, `1:02:03`. One spelling for
/// every surface that shows a recording's time (the status feed, the memo table, the media player).
public func clockText(seconds: Int) -> String {
    let seconds = max(0, seconds)
    func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
    let hours = seconds / 3600
    let minutes = seconds / 60 % 60
    return hours > 0 ? "\(hours):\(two(minutes)):\(two(seconds % 60))" : "\(minutes):\(two(seconds % 60))"
}
