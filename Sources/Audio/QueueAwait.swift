import Dispatch

extension DispatchQueue {
    /// Runs `work` on this queue after what is queued before it, and returns once it has run.
    func perform(_ work: @escaping @Sendable () -> Void) async {
        await withCheckedContinuation { done in
            async {
                work()
                done.resume()
            }
        }
    }
}
