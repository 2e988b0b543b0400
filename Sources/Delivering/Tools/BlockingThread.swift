import Glibc

/// A thread of its own for work that blocks (a child's exit, a pipe, a display connection), so that no cooperative
/// thread and not the bus's waits on it. A POSIX thread, not Foundation's `Thread`: notulad links no Foundation.
enum BlockingThread {
    /// Runs `work` on a new detached thread; runs `otherwise` instead, on the caller's, where none can be started.
    /// The corresponding C functions are `pthread_create` and `pthread_detach`.
    static func start(_ work: @escaping @Sendable () -> Void, otherwise: () -> Void) {
        let context = Unmanaged.passRetained(Work(work)).toOpaque()
        var thread = pthread_t()
        let status = pthread_create(
            &thread, nil,
            { context in
                Unmanaged<Work>.fromOpaque(context!).takeRetainedValue().run()
                return nil
            }, context)
        guard status == 0 else {
            Unmanaged<Work>.fromOpaque(context).release()
            return otherwise()
        }
        pthread_detach(thread)
    }

    /// What `work` returns, worked out on a thread of its own; `fallback` (worked out only then) where no thread can
    /// be started.
    static func run<Result: Sendable>(otherwise fallback: @autoclosure () -> Result, _ work: @escaping @Sendable () -> Result)
        async -> Result
    {
        await withCheckedContinuation { continuation in
            start({ continuation.resume(returning: work()) }, otherwise: { continuation.resume(returning: fallback()) })
        }
    }

    /// The work handed to the new thread, through a pointer.
    private final class Work {
        let run: @Sendable () -> Void

        init(_ run: @escaping @Sendable () -> Void) { self.run = run }
    }
}
