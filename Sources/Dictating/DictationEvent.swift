import Delivering
import Recording

/// What the dictation features tell the rest of notulad: the bus adapter turns each into its signal and banner.
public enum DictationEvent: Sendable, Equatable {
    /// A memo's text arrived where it was sent, through `method`.
    case delivered(RecordingID, DeliveryMethod)
    /// A memo's text (or the live typing of a recording, which then stops) could not arrive: `reason` says what to do
    /// next.
    case notDelivered(RecordingID, reason: String)
    /// Spoken line breaks of a recording were typed as spaces (never `.kept`): the user is told why.
    case newLinesAsSpaces(RecordingID, NewLines)
}

/// Hears the deliveries in the order they happen, each awaited before the next step of its delivery.
public protocol DictationListener: Sendable {
    func dictationChanged(_ event: DictationEvent) async
}

/// A dictation setting the user changed; the wiring keeps it (settings.json).
public enum DictationSetting: Sendable, Equatable {
    case output(TextOutput)
    case typing(TypingChoice)
    case live(Bool)
    case silenceSeconds(Double)
}

/// Told of each setting changed, synchronously, once the feature uses the new value.
public protocol DictationSettingsListener: Sendable {
    func settingChanged(_ setting: DictationSetting)
}
