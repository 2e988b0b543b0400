import DBus
import Notifying
import NotulaContract
import Recording

/// Everything the service shows others, made public once the recorder is connected: the recorder's and the models'
/// objects, the panels, who listens; and logind followed, to pause before sleep.
enum ServiceObjects {
    /// - Returns: the sleep watch, closed at the exit; nil without a system bus.
    static func export(
        _ recorder: Recorder, locale: LocaleChoice, dictation: DictationParts, capture: CaptureParts, speech: SpeechParts,
        transcription: Transcription, gate: AccessGate, panels: Panels, notifier: Notifier, bus: Bus
    ) async -> SleepWatch? {
        let capturing = capture.capture
        await bus.export(
            NotulaBus.recorderPath,
            interfaces: [
                RecorderObject.interface(
                    recorder, locale: locale, output: dictation.output, writing: dictation.writing, silence: capture.silence,
                    text: dictation.liveText,
                    audio: capture.audio, inputOpen: { capturing.isInputOpen }, models: transcription.models, gate: gate, bus: bus)
            ])
        await bus.export(NotulaBus.modelsPath, interfaces: [ModelsObject.interface(transcription.models, memory: speech.memory)])
        let sleepWatch = await SleepWatch.start(pausing: recorder)
        await panels.start()
        ListenersWiring.follow(
            dictation.listenerChanges, audio: capture.audio, text: dictation.liveText, bus: bus, tray: panels.tray, notifier: notifier)
        return sleepWatch
    }
}
