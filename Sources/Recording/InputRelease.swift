/// How a recording's end left the microphone and its file, as `Stop` answers.
public enum InputRelease: Sendable, Equatable {
    /// The input is closed and the file finished.
    case released
    /// The input is closed, but the file could not be finished: its audio is kept on disk and
    /// repaired at the next start. The message says what went wrong.
    case releasedWithError(String)
}

/// Stop's answer to come: how its recording's input was released, as often as it is asked.
public struct PendingRelease: Sendable {
    private let answer: (@Sendable () async -> InputRelease)?

    init(_ answer: @escaping @Sendable () async -> InputRelease) { self.answer = answer }
    private init() { answer = nil }

    /// Nothing held the input: released already.
    static let none = PendingRelease()

    /// Returns once the input is released, with how.
    public func wait() async -> InputRelease { await answer?() ?? .released }
}

// A release cannot fail here: the input is released by disconnecting the record stream, and a
// server that cannot be asked whether it is gone has lost the connection, which frees its streams.
extension Recorder {
    /// Ends the recording as `process` does, or, when it is already ending, joins its end.
    /// - Returns: the recording ended, nil when there was none.
    func stop() -> RecordingID? {
        switch state {
        case .recording, .paused: return try? process()
        case .processing: return recording
        case .idle: return nil
        }
    }

    /// How the input of `id` was released, once it is: at once for a release already done (or a
    /// recording that never held the input), otherwise when its capture step has run.
    func release(of id: RecordingID) async -> InputRelease {
        if let last = lastRelease, last.recording == id { return last.outcome }
        guard stopping.contains(id) else { return .released }
        return await withCheckedContinuation { releaseWaits[id, default: []].append($0) }
    }

    /// The capture step of a recording being stopped has released its input: whoever waits hears how.
    func released(_ id: RecordingID, _ outcome: InputRelease) {
        guard stopping.remove(id) != nil else { return }
        lastRelease = (id, outcome)
        for wait in releaseWaits.removeValue(forKey: id) ?? [] { wait.resume(returning: outcome) }
    }
}
