import Dictating
import FoundationEssentials
import Memos
import Notifying
import Recording
import Writing

/// The running service: the bus connection, the recorder and its objects, built in steps of their own (`Wiring/`),
/// each taking what the ones before made.
public enum Service {
    /// Runs until SIGTERM/SIGINT or until the bus goes away; returns the exit status.
    public static func run(_ options: ServiceOptions) async -> Int32 {
        if options.verbose { Log.enableDebug() }
        let signals = StopSignals()
        let paths = Paths()
        let settings = Settings.load(from: paths.settingsFile)
        do throws(ServiceExit) {
            let bus = try await ServiceBus.connect(options, settings: settings)
            let environment = ProcessInfo.processInfo.environment
            let writing = TextWriting(
                replacements: ReplacementsFile(path: paths.replacementsFile), vocabulary: VocabularyFile(path: paths.vocabularyFile))
            let speech = SpeechParts.make(
                settings: settings, paths: paths, environment: environment, vocabulary: { writing.vocabulary.terms })
            let locale = LocaleChoice(
                kept: settings.locale, alsoSpoken: settings.alsoSpoken, known: speech.known, environment: environment, settingsFile: paths.settingsFile,
                announce: RecorderSignals(bus: bus.bus).localePicked)
            // The recorder reports to the surfaces that command it, so they are made first, with links it is connected to.
            let controls = RecorderLink()
            let answers = NotificationAnswerLink()
            let notifier = Notifier(
                isolation: bus.bus, server: BusNotificationServer(bus: bus.bus), texts: .forEnvironment(environment),
                controls: controls, answers: answers, log: { Log.info($0) })
            let gate = AccessGate(permissions: AppPermissions(settings, settingsFile: paths.settingsFile), notifier: notifier, bus: bus.bus)
            let dictation = DictationParts.make(
                settings: settings, paths: paths, writing: writing, environment: environment, bus: bus.bus, notifier: notifier)
            let transcription = Transcription.make(
                speech: speech, dictation: dictation, locale: locale, settings: settings, bus: bus.bus, notifier: notifier)
            let library = try await LibraryParts.open(
                speech: speech, transcription: transcription, dictation: dictation, gate: gate, controls: controls, paths: paths,
                environment: environment, on: bus)
            let capture = CaptureParts.make(
                options: options, settings: settings, paths: paths, speech: speech, transcription: transcription, library: library,
                dictation: dictation, controls: controls, bus: bus.bus)
            let panels = Panels.make(
                settings: settings, paths: paths, environment: environment, bus: bus, controls: controls,
                locales: PanelWiring.localeControls(locale, models: transcription.models), mediaPlayer: library.mediaPlayer)
            let recorder = RecorderWiring.make(
                bus: bus.bus, capture: capture, library: library, dictation: dictation, notifier: notifier, panels: panels, locale: locale)
            controls.connect(recorder)
            answers.connect(viewer: MemoViewer(folder: paths.transcripts, memos: library.memos), gate: gate)
            let sleepWatch = await ServiceObjects.export(
                recorder, locale: locale, dictation: dictation, capture: capture, speech: speech, transcription: transcription,
                gate: gate, panels: panels, notifier: notifier, bus: bus.bus)
            try await NameClaim.claim(
                bus, speech: speech, models: transcription.models, locale: locale, source: options.source ?? settings.source, paths: paths)
            return await ServiceStop.awaitReason(
                bus, signals: signals, recorder: recorder, outputMute: panels.outputMute, notifier: notifier, sleepWatch: sleepWatch)
        } catch {
            return error.status
        }
    }
}
