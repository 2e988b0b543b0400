import CPulse
import Recording

/// A libpulse failure, keeping the `pa_error_code_t` it came with.
struct PulseError: Error, Sendable {
    let code: Int32

    init(_ code: pa_error_code_t) { self.code = Int32(code.rawValue) }
    init(code: Int32) { self.code = code }

    static let timeout = PulseError(PA_ERR_TIMEOUT)
    static let badState = PulseError(PA_ERR_BADSTATE)
    static let `internal` = PulseError(PA_ERR_INTERNAL)

    /// libpulse's own wording, e.g. "Connection refused".
    var message: String { String(cString: pa_strerror(code)) }

    /// Nothing listens where the server should be: it is stopped, or restarting.
    var isRefused: Bool { code == PulseError(PA_ERR_CONNECTIONREFUSED).code }

    private var isAccessDenied: Bool { code == PulseError(PA_ERR_ACCESS).code }
    private var isNoSuchEntity: Bool { code == PulseError(PA_ERR_NOENTITY).code }

    /// The capture error for a context that could not connect to the server.
    var unreachableServer: CaptureError {
        if isAccessDenied {
            return .permissionDenied(
                "The sound server refused access (\(message)). Run Notula in your desktop session, or check the PulseAudio cookie."
            )
        }
        return .deviceUnavailable(
            "Cannot reach the PulseAudio server (\(message)). Start PulseAudio or PipeWire's pulse server, or check PULSE_SERVER."
        )
    }

    /// The capture error for a record stream that could not connect to `source` (nil: the default source).
    func unusableSource(_ source: String?) -> CaptureError {
        let described = source.map { "'\($0)'" } ?? "the default source"
        if isAccessDenied {
            return .permissionDenied("The sound server refused recording from \(described) (\(message)).")
        }
        if isNoSuchEntity {
            guard let source else {
                return .deviceUnavailable("There is no audio source to record from. Connect a microphone, then try again.")
            }
            return .deviceUnavailable(
                "No audio source named '\(source)'. List sources with `pactl list short sources`, or pick another in settings."
            )
        }
        return .deviceUnavailable("Cannot record from \(described) (\(message)). Pick another source in settings.")
    }
}
