/// The times one measurement took, sorted, for its median and tail.
struct Latencies {
    let sorted: [Duration]
    /// The upper median for an even count.
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

/// Runs `body` and returns what it returned with the time it took on the continuous clock.
func timed<Value, Failure: Error>(_ body: () throws(Failure) -> Value) throws(Failure) -> (value: Value, duration: Duration) {
    let clock = ContinuousClock()
    let start = clock.now
    let value = try body()
    return (value, clock.now - start)
}

/// `timed` for work that awaits.
func timed<Value>(_ body: () async throws -> Value) async rethrows -> (value: Value, duration: Duration) {
    let clock = ContinuousClock()
    let start = clock.now
    let value = try await body()
    return (value, clock.now - start)
}
