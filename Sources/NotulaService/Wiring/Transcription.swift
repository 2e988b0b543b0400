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
            accurate: AccurateModels(
                choices: speech.accurateChoices, engines: speech.accurateEngines, voiceDetection: speech.voiceDetection,
                alsoSpoken: { locale.alsoSpoken }))
        dictation.liveTyping.start(localeOf: { transcriber.locale(of: $0) })
        let models = ModelStore(
            isolation: bus,
            catalogs: ModelCatalogs(known: speech.known, source: speech.catalogSource, accurateSources: speech.accurateCatalogSources),
            installer: ModelInstaller(places: speech.places, loads: speech.loadCheck),
            selection: ModelSelection(live: speech.choices, accurate: speech.accurateChoices), transcriber: transcriber,
            listener: ModelSignals(bus: bus, notifier: notifier))
        return Transcription(transcriber: transcriber, models: models)
    }
}
