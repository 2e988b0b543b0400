import Dispatch
import Synchronization

/// A transfer's cancel flag, which any thread raises and libcurl's progress callback polls; and the
/// thread the transfer runs on.
final class TransferCancellation: Sendable {
    private let raised = Atomic<Bool>(false)

    /// Raises the flag; the transfer ends with `.cancelled` at libcurl's next progress call.
    func cancel() {
        raised.store(true, ordering: .relaxed)
    }

    var isCancelled: Bool {
        raised.load(ordering: .relaxed)
    }

    /// Runs a transfer on a dispatch queue of its own and awaits its end.
    ///
    /// `curl_easy_perform` blocks for as long as the transfer lasts, minutes for a large file: on the caller's
    /// cooperative thread it would hold one of the few threads every task of the process shares.
    /// Cancelling the awaiting task raises the flag.
    /// - Parameter transfer: The blocking work, which polls `isCancelled`.
    /// - Throws: What `transfer` throws.
    func perform<Value: Sendable>(_ transfer: @escaping @Sendable () throws(DownloadError) -> Value) async throws(DownloadError)
        -> Value
    {
        let result = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Result<Value, DownloadError>, Never>) in
                DispatchQueue(label: "transfer").async {
                    continuation.resume(returning: Result { () throws(DownloadError) in try transfer() })
                }
            }
        } onCancel: {
            cancel()
        }
        return try result.get()
    }
}
