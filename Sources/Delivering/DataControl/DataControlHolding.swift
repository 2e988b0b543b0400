import Synchronization

/// The selection as Notula took it through data control: settled once a window asked for its content or something
/// else took the selection (or the connection ended), which `served(within:)` awaits.
final class DataControlHolding: ClipboardHolding {
    private struct State {
        var settled = false
        var waiting: [Int: CheckedContinuation<Bool, Never>] = [:]
        var nextWaiter = 0
        /// Waiters whose time ran out before they waited.
        var late: Set<Int> = []
    }
    private let state = Mutex(State())

    func settle() {
        let waiting = state.withLock { state in
            state.settled = true
            defer { state.waiting = [:] }
            return state.waiting
        }
        for continuation in waiting.values { continuation.resume(returning: true) }
    }

    func served(within timeLimit: Duration) async -> Bool {
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
                if state.settled { return true }
                if state.late.remove(waiter) != nil { return false }
                state.waiting[waiter] = continuation
                return nil
            }
            if let answer { continuation.resume(returning: answer) }
        }
    }

    /// Answers `waiter` with false, unless it was answered; marks it late where it does not wait yet.
    private func giveUp(_ waiter: Int) {
        let continuation = state.withLock { state in
            guard let continuation = state.waiting.removeValue(forKey: waiter) else {
                if !state.settled { state.late.insert(waiter) }
                return nil as CheckedContinuation<Bool, Never>?
            }
            return continuation
        }
        continuation?.resume(returning: false)
    }
}
