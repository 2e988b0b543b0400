import Synchronization

/// What every surface that is not a bus method — the tray, the notifications' buttons, the media player, the
/// shortcuts, the silence ending — sends the recorder: its commands, for nobody waiting (a failure is reported, as
/// `Failed` and a banner; only a refusal is thrown), and the flow as of now.
public protocol RecorderControls: Sendable {
    /// Runs `action` through `Recorder.perform(_:for: .nobody)`, on the recorder's executor, which the surfaces share.
    /// - Throws: `invalidState` when the state no longer allows what the surface offered.
    @discardableResult
    func perform(_ action: RecordingAction) throws(RecordingError) -> CommandOutcome

    /// Runs `action` only while `recording` is the one under way and running, from any thread: what hears the
    /// audio off the recorder's executor may come after the user acted.
    /// - Returns: nil when `recording` is no longer running.
    @discardableResult
    func perform(_ action: RecordingAction, whileRunning recording: RecordingID) async throws(RecordingError) -> CommandOutcome?

    /// The flow as of now, on the recorder's executor.
    var snapshot: RecorderSnapshot { get }
}

/// The controls of a recorder built after the surfaces that hold them: its reporters are those surfaces, so the
/// wiring makes this link first, hands it to each, and connects the recorder once it exists.
public final class RecorderLink: RecorderControls {
    private let linked = Mutex<Recorder?>(nil)

    public init() {}

    /// Set once, where the recorder is built.
    public func connect(_ recorder: Recorder) {
        linked.withLock { linked in
            precondition(linked == nil, "The recorder's controls are connected once")
            linked = recorder
        }
    }

    @discardableResult
    public func perform(_ action: RecordingAction) throws(RecordingError) -> CommandOutcome {
        let recorder = try connected()
        return try recorder.assumeIsolated { recorder in
            Result { () throws(RecordingError) in try recorder.perform(action, for: .nobody) }
        }.get()
    }

    @discardableResult
    public func perform(_ action: RecordingAction, whileRunning recording: RecordingID) async throws(RecordingError)
        -> CommandOutcome?
    {
        try await Self.perform(action, whileRunning: recording, on: try connected())
    }

    public var snapshot: RecorderSnapshot {
        guard let recorder = linked.withLock({ $0 }) else {
            return RecorderSnapshot(state: .idle, elapsed: .zero, timerAnchor: nil, recording: nil)
        }
        return recorder.assumeIsolated { $0.snapshot }
    }

    private static func perform(_ action: RecordingAction, whileRunning recording: RecordingID, on recorder: isolated Recorder)
        throws(RecordingError) -> CommandOutcome?
    {
        guard recorder.recording == recording, recorder.state == .recording else { return nil }
        return try recorder.perform(action, for: .nobody)
    }

    /// The surfaces are exported once the recorder is connected; a command before would find nothing to run.
    private func connected() throws(RecordingError) -> Recorder {
        guard let recorder = linked.withLock({ $0 }) else { throw .failed("The recorder is not ready yet") }
        return recorder
    }
}
