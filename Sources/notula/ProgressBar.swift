#if canImport(Glibc)
    import Glibc
#endif

/// A download's progress on standard error, redrawn in place: `[##########----------]  50%  22.1 of 44.3 MB`.
/// Shown only on a terminal, so that scripts and logs get the outcome alone.
final class ProgressBar {
    var total: UInt64?
    private let isShown = isatty(2) == 1
    private var drawn = false

    func show(_ fraction: Double) {
        guard isShown else { return }
        let clamped = min(1, max(0, fraction))
        let filled = Int(clamped * 30)
        var line = "\r[" + String(repeating: "#", count: filled) + String(repeating: "-", count: 30 - filled) + "] "
        line += String(Int(clamped * 100)).leftPadded(to: 3) + "%"
        if let total { line += "  \(megabytes(clamped * Double(total))) of \(megabytes(Double(total))) MB" }
        write(line)
        drawn = true
    }

    /// Ends the bar's line, so that what follows starts on a line of its own.
    func finish() {
        guard drawn else { return }
        write("\n")
        drawn = false
    }

    private func megabytes(_ bytes: Double) -> String {
        let tenths = Int((bytes / 100_000).rounded())
        return "\(tenths / 10).\(tenths % 10)"
    }

    private func write(_ text: String) {
        var bytes = Array(text.utf8)
        _ = Glibc.write(2, &bytes, bytes.count)
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        String(repeating: " ", count: max(0, width - count)) + self
    }
}
