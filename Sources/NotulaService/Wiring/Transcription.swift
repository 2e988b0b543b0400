import DBus
import Dictating
import Models
import Notifying
import Speech

/// The services that turn speech into text: the transcriber, live and from files, and the model store that keeps
/// its models, reporting downloads on the bus and in banners.
struct Transcription {
    let transcriber: Transcriber
    let models: ModelStore

    static func make(
        speech: SpeechParts, dictation: DictationParts, locale: LocaleChoice, settings: Settings, bus: Bus, notifier: Notifier
    ) -> Transcription {
        let transcriber = Transcriber(
            engine: VoskEngine(
                libraryCandidates: speech.libraryCandidates, modelPlaces: speech.places.all, choices: speech.choices,
                memory: speech.memory),
            idleRelease: settings.modelIdleRelease, currentLocale: { locale.current },
            liveText: LiveTextListeners(listeners: [dictation.liveText, dictation.liveTyping]),
            accurate: speech.whisper.map { AccurateModels(choices: speech.accurateChoices, places: speech.places.all, helper: $0) })
        dictation.liveTyping.start(localeOf: { transcriber.locale(of: $0) })
        let models = ModelStore(
            isolation: bus, places: speech.places, known: speech.known, catalogSource: speech.catalogSource,
            whisperCatalogSource: speech.whisperCatalogSource, transcriber: transcriber,
            listener: ModelSignals(bus: bus, notifier: notifier), loads: speech.loadCheck, choices: speech.choices,
            accurateChoices: speech.accurateChoices)
        return Transcription(transcriber: transcriber, models: models)
    }
}
