/// Where the recording flow is.
public enum RecordingState: String, Sendable, CaseIterable {
    case idle, recording, paused, processing

    /// A recording is under way: its input open or paused, not yet sent or discarded.
    public var isCapturing: Bool { self == .recording || self == .paused }
}

/// What a user (or a script, or a notification button) asks of the flow.
public enum RecordingAction: String, Sendable, CaseIterable {
    case toggle, start, pause, resume, process, discard
    /// Process, or joining the end already under way; never refused, and answered with how the input was released.
    case stop

    /// The bus method's name, for messages a person reads.
    public var methodName: String { rawValue.prefix(1).uppercased() + rawValue.dropFirst() }
}

extension RecordingState {
    /// The actions that do something in this state, as a refusal lists them: those that succeed without change are
    /// left out, and Stop, which is Process to whoever Process is refused.
    public var allowedActions: [RecordingAction] {
        switch self {
        case .idle: [.toggle, .start]
        case .recording: [.toggle, .pause, .process, .discard]
        case .paused: [.toggle, .resume, .process, .discard]
        case .processing: [.discard]
        }
    }
}
