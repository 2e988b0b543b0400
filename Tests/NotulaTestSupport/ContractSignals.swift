import DBus
import NotulaContract

extension Message {
    /// Whether this is the recorder's `signal`.
    public func isSignal(_ signal: NotulaBus.Recorder.Signal) -> Bool {
        header.interface == NotulaBus.recorderInterface.rawValue && header.member == signal.rawValue.rawValue
    }

    /// Whether this is the Models object's `signal`.
    public func isSignal(_ signal: NotulaBus.Models.Signal) -> Bool {
        header.interface == NotulaBus.modelsInterface.rawValue && header.member == signal.rawValue.rawValue
    }
}
