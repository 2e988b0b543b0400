import Foundation

// How the report writes numbers: one place, so that every table rounds alike.

extension Duration {
    var seconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
}

func microseconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) * 1e6 + Double(duration.components.attoseconds) / 1e12
}

/// `value` with `decimals` digits after the point.
func fixed(_ value: Double, _ decimals: Int) -> String {
    String(format: "%.\(decimals)f", value)
}

/// A time in seconds with two decimals, as the speech tables give them: `1.23 s`.
func secondsText(_ duration: Duration) -> String {
    fixed(duration.seconds, 2) + " s"
}

/// A resident size given in kB, as MB with one decimal and the exact kB.
func megabytesText(kilobytes: Int) -> String {
    "\(fixed(Double(kilobytes) / 1024, 1)) MB (\(kilobytes) kB)"
}

/// A line on stderr saying what the bench is doing: the report, on stdout, takes minutes.
func progress(_ message: String) {
    FileHandle.standardError.write(Data("notula-bench: \(message)\n".utf8))
}

func median(_ values: [Double]) -> Double { percentile(50, values) }

/// The value `percent` % of `values` are at or below (nearest rank); NaN for none.
func percentile(_ percent: Int, _ values: [Double]) -> Double {
    values.isEmpty ? .nan : values.sorted()[min(values.count - 1, values.count * percent / 100)]
}
