/// Why speech could not be turned into text.
///
/// Each case carries a message meant for the user: what went wrong and, where there is one, what to do.
public enum SpeechError: Error, Sendable, Equatable {
    /// libvosk could not be loaded, or lacks a function the engine needs.
    case engineUnavailable(String)
    /// A folder that libvosk does not accept as a model.
    case modelUnavailable(String)
    /// libvosk failed while decoding (an internal exception), or could not create a recognizer.
    case recognitionFailed(String)
    /// An audio file that cannot be opened or read.
    case audioUnreadable(String)
    /// An audio file that is not a canonical 16 kHz mono 16-bit PCM WAV; the message says what differs.
    case unsupportedAudio(String)
    /// The caller stopped a decoding it no longer needs (its memo was discarded).
    case cancelled

    /// The message carried by the case.
    public var message: String {
        switch self {
        case .engineUnavailable(let message), .modelUnavailable(let message), .recognitionFailed(let message),
            .audioUnreadable(let message), .unsupportedAudio(let message):
            return message
        case .cancelled: return "The transcription was cancelled."
        }
    }
}
