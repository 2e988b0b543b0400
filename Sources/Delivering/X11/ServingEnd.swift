import Synchronization

/// The moment an owner stopped serving the clipboard, told from its thread to whoever waits for it.
final class ServingEnd: ClipboardHolding {
    private struct State {
        var ended = false
        var waiters: [Int: CheckedContinuation<Bool, Never>] = [:]
        var nextWaiter = 0
    }

    private let state = Mutex(State())

    func end() {
        let waiters = state.withLock { state in
            state.ended = true
            defer { state.waiters = [:] }
            return state.waiters.values
        }
        for waiter in waiters { waiter.resume(returning: true) }
    }

    /// Whether it ended within `timeLimit`: one paste served, or the clipboard taken by another program.
    func served(within timeLimit: Duration) async -> Bool {
        await withCheckedContinuation { continuation in
            let waiter: Int? = state.withLock { state in
                guard !state.ended else { return nil }
                state.nextWaiter += 1
                state.waiters[state.nextWaiter] = continuation
                return state.nextWaiter
            }
            guard let waiter else { return continuation.resume(returning: true) }
            Task {
                try? await Task.sleep(for: timeLimit)
                state.withLock { $0.waiters.removeValue(forKey: waiter) }?.resume(returning: false)
            }
        }
    }
}
