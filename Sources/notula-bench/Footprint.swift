import DBus
import Foundation

/// What the shipped notulad weighs (issue 32): the binary `make build` makes, and what it holds once idle after a
/// first start, each against its goal.
enum Footprint {
    /// The binary at most 25 MB (of 10⁶ bytes).
    static let sizeGoal = 25_000_000
    /// An idle first start at most 15 MB resident (of 1024 kB, as the other tables count).
    static let residentGoal = 15 * 1024

    static func run(_ notulad: String, home: URL, bus: Bus) async throws -> String {
        let size = (try FileManager.default.attributesOfItem(atPath: notulad)[.size] as? Int) ?? 0
        let idle = try await FirstStart.measure(notulad, home: home, bus: bus)
        let icu = idle.libraries.filter { $0.contains("icu") || $0.contains("FoundationInternationalization") }
        return """
            ## The shipped notulad: size and memory

            The binary as `make build` links it (the Swift runtime inside, stripped), and VmRSS of a notulad started \
            with fresh folders once its first start is over (the catalog fetched and cached, then 1 s).

            | | value | goal |
            |---|---|---|
            | size of \(URL(fileURLWithPath: notulad).lastPathComponent) | \(fixed(Double(size) / 1e6, 1)) MB (\(size) bytes) \
            | \(verdict(size <= sizeGoal, "≤ \(sizeGoal / 1_000_000) MB")) |
            | RSS at an idle first start | \(megabytesText(kilobytes: idle.rssKilobytes)) \
            | \(verdict(idle.rssKilobytes <= residentGoal, "≤ \(residentGoal / 1024) MB")) |
            | shared libraries mapped then | \(idle.libraries.count), ICU among them: \(icu.isEmpty ? "none" : icu.joined(separator: ", ")) | none |
            """
    }

    private static func verdict(_ met: Bool, _ goal: String) -> String { met ? "\(goal): met" : "\(goal): **not met**" }
}
