import Synchronization

/// What a double heard, in order, with a bounded wait for what a test expects to come.
final class Recorded<Element: Sendable>: Sendable {
    private struct Waiter {
        let isSatisfied: @Sendable ([Element]) -> Bool
        let continuation: CheckedContinuation<Bool, Never>
    }
    private struct State {
        var all: [Element] = []
        var waiters: [Int: Waiter] = [:]
        var nextWaiter = 0
    }
    private let state = Mutex(State())

    var all: [Element] { state.withLock { $0.all } }

    func append(_ element: Element) {
        let satisfied = state.withLock { state in
            state.all.append(element)
            let ready = state.waiters.filter { $0.value.isSatisfied(state.all) }
            for key in ready.keys { state.waiters[key] = nil }
            return ready.values.map(\.continuation)
        }
        satisfied.forEach { $0.resume(returning: true) }
    }

    /// Waits until what was heard satisfies `condition`, at most `timeout`.
    /// - Returns: whether it does.
    func wait(timeout: Duration = .seconds(10), until condition: @escaping @Sendable ([Element]) -> Bool) async -> Bool {
        await withCheckedContinuation { continuation in
            let key: Int? = state.withLock { state in
                guard !condition(state.all) else { return nil }
                state.nextWaiter += 1
                state.waiters[state.nextWaiter] = Waiter(isSatisfied: condition, continuation: continuation)
                return state.nextWaiter
            }
            guard let key else { return continuation.resume(returning: true) }
            Task {
                try? await Task.sleep(for: timeout)
                state.withLock { $0.waiters.removeValue(forKey: key) }?.continuation.resume(returning: false)
            }
        }
    }
}
