import DBus
import Recording

extension BusError {
    /// A failure of the flow as a reply or `Failed` names it.
    public init(_ error: RecordingError) {
        switch error {
        case .invalidState: self.init(.invalidState, error.message)
        case .deviceUnavailable: self.init(.deviceUnavailable, error.message)
        case .permissionDenied: self.init(.permissionDenied, error.message)
        case .noSpace: self.init(.noSpace, error.message)
        case .engineUnavailable: self.init(.engineUnavailable, error.message)
        case .modelUnavailable: self.init(.modelUnavailable, error.message)
        case .failed: self.init(.notulaFailed, error.message)
        }
    }
}
