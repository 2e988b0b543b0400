/// The outcome of a transition whose effect the caller may wait for (opening the microphone).
public struct Confirmation: Sendable {
    private let outcome: AsyncStream<RecordingError?>?

    /// A transition whose effect cannot fail in a way the caller must hear of.
    public static let immediate = Confirmation(outcome: nil)

    public var isImmediate: Bool { outcome == nil }

    /// Returns when the effect took place.
    /// - Throws: the reason it could not (the microphone could not be opened, …).
    public func wait() async throws(RecordingError) {
        guard let outcome else { return }
        for await result in outcome {
            if let result { throw result }
            return
        }
    }

    static func pending() -> (Confirmation, Promise) {
        let (stream, continuation) = AsyncStream.makeStream(of: RecordingError?.self, bufferingPolicy: .bufferingNewest(1))
        return (Confirmation(outcome: stream), Promise(continuation: continuation))
    }
}

/// The other end of a `Confirmation`, resolved once by the capture chain.
struct Promise: Sendable {
    let continuation: AsyncStream<RecordingError?>.Continuation

    func resolve(_ error: RecordingError?) {
        continuation.yield(error)
        continuation.finish()
    }
}
