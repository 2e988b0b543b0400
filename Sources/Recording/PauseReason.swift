/// Why a recording is paused: the user paused it, or something interrupted it. Only a call
/// gives a recording back by itself, and only one the call paused.
public enum PauseReason: String, Sendable, CaseIterable {
    /// Pause (or Toggle) from the bus, a notification or a panel.
    case user
    /// Another application opened a call stream.
    case call
    /// The computer went to sleep.
    case sleep
    /// The microphone or the sound server went away.
    case inputLost = "input-lost"
    /// The recordings folder's file system is full.
    case diskFull = "disk-full"
    /// The service stopped (SIGTERM, replaced) and kept the recording to be recovered at its next start.
    case serviceStopped = "service-stopped"
}

/// What interrupts a recording from outside the flow.
public enum Interruption: Sendable {
    /// A call: pauses, and resumes when the last call stream closes unless someone acted meanwhile.
    case call
    /// Sleep (logind's PrepareForSleep): pauses; waking gives no sign that resuming is wanted.
    case sleep

    var pauseReason: PauseReason {
        switch self {
        case .call: .call
        case .sleep: .sleep
        }
    }
}
