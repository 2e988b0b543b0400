import Delivering
import Dictating
import Recording
import Speech

/// Keeps the dictation settings the user changes in settings.json.
struct DictationSettingsFile: DictationSettingsListener {
    let path: String

    func settingChanged(_ setting: DictationSetting) {
        Settings.update(at: path) { settings in
            switch setting {
            case .output(let output): settings.output = output.rawValue
            case .typing(let typing): settings.typing = typing.value
            case .live(let live): settings.live = live
            case .silenceSeconds(let seconds): settings.silenceSeconds = seconds
            }
        }
    }
}

extension OutputChoice {
    /// The choices settings.json keeps; a value that names none is warned of and left at its default.
    convenience init(_ settings: Settings, settingsFile: String) {
        let output = settings.output.flatMap { TextOutput(rawValue: $0) }
        let typing = settings.typing.flatMap { TypingChoice($0) }
        if output == nil, let value = settings.output {
            Log.warning("\(settingsFile): output \"\(value)\" is none of \(TextOutput.spelled); using memo")
        }
        if typing == nil, let value = settings.typing {
            Log.warning("\(settingsFile): typing \"\(value)\" is none of \(TypingChoice.spelled); using auto")
        }
        self.init(
            output: output ?? .memo, typing: typing ?? .automatic, live: settings.live ?? false,
            spaceAfterText: settings.spaceAfterText ?? true, settings: DictationSettingsFile(path: settingsFile))
    }
}

extension SilenceEnding {
    convenience init(_ settings: Settings, settingsFile: String, listener: any SilenceListener) {
        self.init(seconds: settings.silenceSeconds ?? 0, listener: listener, settings: DictationSettingsFile(path: settingsFile))
    }
}

extension AudioReaders {
    /// Silero hears the speech in `vad` where it is installed, unless the user set the level that is speech
    /// (`vadSilenceThreshold`): that asks for the level meter.
    convenience init(_ settings: Settings, voiceDetection: VoiceDetection?, changes: ListenerChanges) {
        self.init(
            threshold: settings.vadSilenceThreshold ?? AudioReaders.defaultThreshold,
            silenceSeconds: settings.vadSilenceSeconds ?? AudioReaders.defaultSilenceSeconds,
            voiceDetection: settings.vadSilenceThreshold == nil ? voiceDetection : nil, changes: changes)
    }
}
