/// The forms `OpenAudio` gives a recording's audio in: 16 kHz mono, as captured.
public enum AudioForm: String, Sendable, CaseIterable {
    /// Signed 16-bit little-endian samples, raw: the file's samples.
    case s16le
    /// 32-bit float little-endian samples from −1 to 1, raw.
    case f32le
    /// Only the stretches of speech, each a `VoiceFrame`.
    case vad

    /// The forms as a person reads them: "s16le, f32le or vad".
    public static let spelled = allCases.dropLast().map(\.rawValue).joined(separator: ", ") + " or " + allCases.last!.rawValue
}
