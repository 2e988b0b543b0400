import Audio
import DBus
import Dictating
import NotulaContract
import Recording

/// The capture from the microphone, and those who hear its samples beside the transcriber and the library: the
/// silence ending and the readers of the audio.
struct CaptureParts {
    let capture: PulseCapture
    let silence: SilenceEnding
    let audio: AudioReaders

    static func make(
        options: ServiceOptions, settings: Settings, paths: Paths, speech: SpeechParts, transcription: Transcription,
        library: LibraryParts, dictation: DictationParts, controls: RecorderLink, bus: Bus
    ) -> CaptureParts {
        let silence = SilenceEnding(
            settings, settingsFile: paths.settingsFile, listener: SilenceSending(controls: controls, bus: bus))
        let audio = AudioReaders(settings, voiceDetection: speech.voiceDetection, changes: dictation.listenerChanges)
        let capture = PulseCapture(
            recordingsDirectory: paths.recordings, source: options.source ?? settings.source, isolation: bus,
            listener: CaptureListeners([transcription.transcriber, library.memos, silence, audio]),
            inputChanged: { _ in
                Task {
                    await bus.emitPropertiesChanged(path: NotulaBus.recorderPath, interface: NotulaBus.Recorder.self, names: [.inputOpen])
                }
            },
            lengthLimit: settings.memoLengthLimit, keptFree: roomKeptForLibrary(paths))
        return CaptureParts(capture: capture, silence: silence, audio: audio)
    }
}
