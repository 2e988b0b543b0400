import Synchronization

/// The selection as Notula took it (data control, X11): when a window last asked for its content, and whether it
/// has ended (something else took the selection, or the connection ended), which `served` awaits.
final class SelectionHolding: ClipboardHolding {
    private struct Waiter {
        let since: ContinuousClock.Instant?
        let continuation: CheckedContinuation<Bool, Never>
    }
    private struct State {
        var lastAsked: ContinuousClock.Instant?
        var ended = false
        var waiting: [Int: Waiter] = [:]
        var nextWaiter = 0
        /// Waiters whose time ran out before they waited.
        var late: Set<Int> = []

        func answers(since: ContinuousClock.Instant?) -> Bool {
            ended || lastAsked.map { asked in since.map { asked >= $0 } ?? true } == true
        }
    }
    private let state = Mutex(State())

    /// A window asked for the content (not the hint) at `instant`, and it was written.
    func asked(at instant: ContinuousClock.Instant) { update { $0.lastAsked = max($0.lastAsked ?? instant, instant) } }

    /// The selection is Notula's no more.
    func end() { update { $0.ended = true } }

    func served(within timeLimit: Duration) async -> Bool { await served(since: nil, within: timeLimit) }

    func served(since start: ContinuousClock.Instant, within timeLimit: Duration) async -> Bool {
        await served(since: Optional(start), within: timeLimit)
    }

    private func served(since start: ContinuousClock.Instant?, within timeLimit: Duration) async -> Bool {
        let waiter = state.withLock { state in
            defer { state.nextWaiter += 1 }
            return state.nextWaiter
        }
        let timer = Task { [self] in
            try? await Task.sleep(for: timeLimit)
            giveUp(waiter)
        }
        defer { timer.cancel() }
        return await withCheckedContinuation { continuation in
            let answer: Bool? = state.withLock { state in
                if state.answers(since: start) { return true }
                if state.late.remove(waiter) != nil { return false }
                state.waiting[waiter] = Waiter(since: start, continuation: continuation)
                return nil
            }
            if let answer { continuation.resume(returning: answer) }
        }
    }

    private func update(_ change: (inout State) -> Void) {
        let answered = state.withLock { state in
            change(&state)
            let answered = state.waiting.filter { state.answers(since: $0.value.since) }
            for key in answered.keys { state.waiting[key] = nil }
            return answered.values.map(\.continuation)
        }
        for continuation in answered { continuation.resume(returning: true) }
    }

    /// Answers `waiter` with false, unless it was answered; marks it late where it does not wait yet.
    private func giveUp(_ waiter: Int) {
        let continuation = state.withLock { state in
            guard let waiting = state.waiting.removeValue(forKey: waiter) else {
                state.late.insert(waiter)
                return nil as CheckedContinuation<Bool, Never>?
            }
            return waiting.continuation
        }
        continuation?.resume(returning: false)
    }
}
