/// A failure of the flow, as the user is told of it.
public enum RecordingError: Error, Sendable, Equatable {
    /// The action is not allowed in the current state.
    case invalidState(current: RecordingState, action: RecordingAction)
    /// No microphone: no sound server, or no such source.
    case deviceUnavailable(String)
    /// The system refused access to the microphone or the recordings folder.
    case permissionDenied(String)
    /// The recordings folder's file system is full.
    case noSpace(String)
    /// No speech engine (libvosk) to transcribe with.
    case engineUnavailable(String)
    /// No speech model for the recording's language on this machine.
    case modelUnavailable(String)
    /// Anything else.
    case failed(String)

    public var message: String {
        switch self {
        case .invalidState(let current, let action):
            let allowed = current.allowedActions.map(\.methodName).joined(separator: ", ")
            return "Cannot \(action.methodName) while \(current.rawValue): \(current.rawValue) allows \(allowed)"
        case .deviceUnavailable(let message), .permissionDenied(let message), .noSpace(let message),
            .engineUnavailable(let message),
            .modelUnavailable(let message), .failed(let message):
            return message
        }
    }

    init(_ error: CaptureError) {
        switch error {
        case .deviceUnavailable(let message): self = .deviceUnavailable(message)
        case .permissionDenied(let message): self = .permissionDenied(message)
        case .noSpace(let message): self = .noSpace(message)
        case .failed(let message): self = .failed(message)
        }
    }
}
