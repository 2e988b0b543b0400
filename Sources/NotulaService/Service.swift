import Audio
import DBus
import Delivering
import Downloading
import FoundationEssentials
import Memos
import Models
import Notifying
import NotulaContract
import Recording
import Speech
import Writing

#if canImport(Glibc)
    import Glibc
#endif

/// The running service: the bus connection, the recorder and its objects.
public enum Service {
    /// Runs until SIGTERM/SIGINT or until the bus goes away; returns the exit status.
    public static func run(_ options: ServiceOptions) async -> Int32 {
        if options.verbose { Log.enableDebug() }
        let signals = StopSignals()
        let paths = Paths()
        let settings = Settings.load(from: paths.settingsFile)
        let bus: Bus
        do { bus = try await Bus.connect(.session) } catch {
            Log.error("Cannot connect to the session bus: \(error.message)")
            return 1
        }
        // The tray item and the media player on connections of their own: a bus filter that lets a sandboxed app
        // talk to `org.kde.*` or `org.mpris.MediaPlayer2.*` grants it their names, never the recorder's.
        let trayBus: Bus
        let playerBus: Bus?
        do {
            trayBus = try await Bus.connect(.session, sharingThreadOf: bus)
            playerBus = settings.mpris == true ? try await Bus.connect(.session, sharingThreadOf: bus) : nil
        } catch {
            Log.error("Cannot connect the tray item or the media player to the session bus: \(error.message)")
            return 1
        }
        let losses: AsyncStream<Message>
        do { losses = try await NameOwnership.losses(on: bus) } catch {
            Log.error("Cannot follow the ownership of \(NotulaBus.name): \(error.message)")
            return 1
        }
        // Taking over comes before the library opens: the replaced instance first keeps its recording in it.
        // Calls that reach the name meanwhile wait for the objects.
        if options.replace { await bus.holdCalls() }
        let takeOver = options.replace ? await NameOwnership.takeOver(on: bus) : .nobodyOwnsIt
        if case .failed(let status) = takeOver { return status }
        let source = options.source ?? settings.source
        let environment = ProcessInfo.processInfo.environment
        let places = ModelPlaces(
            all: InstalledModels.defaultPlaces(environment: environment), notula: paths.models, downloads: paths.downloads)
        let libraryCandidates = VoskLibrary.defaultCandidates(environment: environment, executableDirectory: executableDirectory())
        reportEngine(libraryCandidates)
        let modelChoices = ModelChoices(settings.models ?? [:]) { chosen in Settings.update(at: paths.settingsFile) { $0.models = chosen } }
        let modelMemory = ModelMemory()
        let engine = VoskEngine(
            libraryCandidates: libraryCandidates, modelPlaces: places.all, choices: modelChoices, memory: modelMemory)
        let catalogAddress =
            environment["NOTULA_MODEL_CATALOG"].flatMap { $0.isEmpty ? nil : $0 } ?? settings.modelCatalog ?? ModelCatalog.address
        // Fetched by notulad run again for the purpose: libcurl and its TLS libraries never enter the service.
        let catalogSource = CatalogSource(
            address: catalogAddress, cacheFolder: paths.cache, fetcher: .helper(executable: "/proc/self/exe"))
        // The built-in list of Whisper's models, unless another is named (a mirror, a test's server).
        let whisperCatalogSource = environment["NOTULA_WHISPER_CATALOG"].flatMap {
            $0.isEmpty ? nil : CatalogSource(address: $0, cacheFolder: paths.cache, fetcher: .helper(executable: "/proc/self/exe"))
        }
        let known = ModelStore.Known(
            catalog: catalogSource.cached() ?? ModelCatalog(entries: []),
            whisperCatalog: whisperCatalogSource.map { $0.cached() ?? ModelCatalog(entries: []) } ?? WhisperCatalog.builtIn,
            installed: InstalledModels.all(places: places.all))
        // A first start guesses from the user's locale, without keeping the guess: a catalog fetched later may guess better.
        let locale = LocaleChoice(
            initial: settings.locale ?? PreferredLocale.fromEnvironment(environment, supported: known.supportedLocales),
            settingsFile: paths.settingsFile)
        realignKeptLocale(settings.locale, to: known, choice: locale, environment: environment)
        let notifier = Notifier(
            isolation: bus, server: BusNotificationServer(bus: bus), texts: .forEnvironment(environment), log: { Log.info($0) })
        let output = OutputChoice(settings, settingsFile: paths.settingsFile)
        let gate = AccessGate(permissions: AppPermissions(settings, settingsFile: paths.settingsFile), notifier: notifier, bus: bus)
        let session = SessionEnvironment(bus: bus, own: environment)
        let searchPath = DeliveryWiring.searchPath(environment)
        let dictation = Dictation(
            readSession: { await session.read() },
            findWays: { await DeliveryWiring.ways(in: $0, bus: bus, paths: paths, searchPath: searchPath) })
        Task { await DeliveryWiring.restoreLeftClipboard(before: dictation, session: session, searchPath: searchPath) }
        let writing = TextWriting(replacements: ReplacementsFile(path: paths.replacementsFile))
        let listenerChanges = ListenerChanges()
        let liveText = TextWatchers(changes: listenerChanges)
        let liveTyping = LiveTyping(choice: output, dictation: dictation, writing: writing, bus: bus, notifier: notifier)
        // One helper process for the accurate pass and memos transcribed again: one Whisper model in memory at most.
        let whisperHelper = WhisperLibrary.firstPresent(
            in: WhisperLibrary.defaultCandidates(environment: environment, executableDirectory: executableDirectory())
        ).map { WhisperHelper(executable: "/proc/self/exe", library: $0, idleRelease: settings.modelIdleRelease) }
        let whisper = WhisperEngine(helper: whisperHelper, modelPlaces: places.all)
        let accurateChoices = ModelChoices(settings.accurateModels ?? [:]) { chosen in
            Settings.update(at: paths.settingsFile) { $0.accurateModels = chosen }
        }
        let transcriber = Transcriber(
            engine: engine, idleRelease: settings.modelIdleRelease, currentLocale: { locale.current },
            liveText: LiveTextListeners(listeners: [liveText, liveTyping]),
            accurate: whisperHelper.map { _ in AccurateModels(choices: accurateChoices, engine: whisper) })
        liveTyping.start(localeOf: { transcriber.locale(of: $0) })
        let models = ModelStore(
            isolation: bus, catalogs: ModelCatalogs(known: known, source: catalogSource, whisperSource: whisperCatalogSource),
            installer: ModelInstaller(places: places, loads: { path throws(UnloadableModel) in try checkLoads(path, libraryCandidates) }),
            selection: ModelSelection(live: modelChoices, accurate: accurateChoices), transcriber: transcriber,
            listener: ModelSignals(bus: bus, notifier: notifier))
        // Made before the library opens, which tells it of every memo played from then on.
        let mediaPlayer = playerBus.map {
            MediaPlayer(bus: $0, texts: .forEnvironment(environment), trackPath: { MemoLibrary.path(of: $0.rawValue) }, log: { Log.info($0) })
        }
        let memos: MemoLibrary
        do {
            memos = try MemoLibrary(
                executor: bus.unownedExecutor, store: paths.library, recordingsFolder: paths.recordings,
                transcriptsFolder: paths.transcripts,
                transcriber: WrittenTranscription(
                    transcriber: transcriber,
                    again: Retranscriber(
                        engines: [VoskEngine(libraryCandidates: libraryCandidates, modelPlaces: places.all, memory: modelMemory), whisper],
                        modelPlaces: places.all),
                    writing: writing), models: models, playback: PulsePlayback(), repair: RecordingRepair.repair)
            try await LibraryExport.open(
                memos, on: bus, writing: writing, models: models, gate: gate,
                alsoTelling: mediaPlayer.map { [MediaPlayerFeed(player: $0, library: memos)] } ?? [])
        } catch {
            Log.error("Cannot open the memo library \(paths.library): \(error)")
            return 1
        }
        let silence = SilenceEnding(settings, settingsFile: paths.settingsFile, bus: bus)
        let audio = AudioReaders(settings, changes: listenerChanges)
        let capture = PulseCapture(
            recordingsDirectory: paths.recordings, source: source, isolation: bus,
            listener: CaptureListeners([transcriber, memos, silence, audio]),
            inputChanged: { _ in
                Task {
                    await bus.emitPropertiesChanged(path: NotulaBus.recorderPath, interface: NotulaBus.Recorder.self, names: [.inputOpen])
                }
            },
            lengthLimit: settings.memoLengthLimit, keptFree: roomKeptForLibrary(paths))
        let tray = TrayItem(bus: trayBus, texts: .forEnvironment(environment), log: { Log.info($0) })
        let mediaPause = settings.pauseMedia == false ? nil : MediaPause(bus: bus, own: MediaPlayer.name, log: { Log.info($0) })
        // Always made: a sink a killed notulad left muted is unmuted even once the setting is off.
        let outputMute = OutputMute(
            record: paths.mutedOutputs, server: nil, chosenSink: environment["PULSE_SINK"], log: { Log.info($0) })
        outputMute.restoreLeftMuted()
        let muting = settings.muteOutput == true ? PanelReporter { outputMute.heard($0.state) } : nil
        let cues = settings.sounds == false ? nil : Cues(environment: environment, log: { Log.info($0) })
        // A user who said no in the desktop's dialog is not asked again at every start.
        let shortcuts =
            settings.globalShortcuts == false
            ? nil
            : GlobalShortcuts(
                bus: bus, appID: "org.notula.Notula", log: { Log.info($0) },
                declined: { Settings.update(at: paths.settingsFile) { $0.globalShortcuts = false } })
        let panels: [any Reporting] =
            [tray.reporter]
            + [mediaPlayer?.reporter, mediaPause?.reporter, muting, cues?.reporter, shortcuts?.reporter].compactMap { $0 }
        let recorder = Recorder(
            isolation: bus, clock: MonotonicSystemClock(), capture: capture, processing: memos,
            reporter: Reporters(surfaces: [
                RecorderSignals(bus: bus), NotificationReporter(notifier: notifier, memos: memos),
                DeliveryReporter(
                    bus: bus, memos: memos, notifier: notifier, choice: output, dictation: dictation, liveTyping: liveTyping),
                Reporters(surfaces: panels),
            ]),
            makeRecordingID: newRecordingID, pickedLocale: { locale.current },
            cueBeforeSpeech: { await cues?.playToEnd(.listening) })
        silence.start(ending: recorder)
        await notifier.start(controls(recorder, viewer: MemoViewer(folder: paths.transcripts, memos: memos), gate: gate))
        await bus.export(
            NotulaBus.recorderPath,
            interfaces: [
                RecorderObject.interface(
                    recorder, locale: locale, output: output, silence: silence, text: liveText, audio: audio,
                    inputOpen: { capture.isInputOpen }, models: models, gate: gate,
                    bus: bus)
            ])
        await bus.export(NotulaBus.modelsPath, interfaces: [ModelsObject.interface(models, memory: modelMemory)])
        let sleepWatch = await SleepWatch.start(pausing: recorder)
        let panelControls = PanelWiring.controls(recorder, locale: locale, models: models, bus: bus)
        await tray.start(panelControls)
        ListenersWiring.follow(listenerChanges, audio: audio, text: liveText, bus: bus, tray: tray, notifier: notifier)
        await mediaPlayer?.start(
            panelControls, elapsed: { recorder.assumeIsolated { $0.snapshot.elapsed } },
            memoPlayback: MemoPlaybackWiring.controls(memos.player))
        await shortcuts?.start(panelControls)

        // Once a day at most, in a process of its own for the time of the fetch. Begun before the name is
        // owned, so that the first pick or Install waits for the catalog rather than refusing.
        let catalogIsStale = [catalogSource, whisperCatalogSource].contains { $0?.isCacheFresh(maximumAge: .seconds(86_400)) == false }
        if catalogIsStale { await models.startRefresh() }
        // Objects first, then the name: an activated service receives calls the moment it owns it.
        if takeOver == .nobodyOwnsIt, let status = await NameOwnership.claim(on: bus) { return status }
        await bus.answerHeldCalls()
        let installed = await models.installedLocales
        Log.info(
            "Ready on the session bus as \(NotulaBus.name) (\(await bus.uniqueName)); recording from \(source ?? "the default source") into \(paths.recordings); transcribing in \(locale.current) (models here: \(installed.isEmpty ? "none" : installed.joined(separator: ", ")))"
        )
        Task {
            if catalogIsStale {
                do throws(ModelError) { try await models.refresh() } catch { Log.warning(error.message) }
            }
            await models.installIfMissing(locale.current)
        }

        let reason = await StopReason.first(on: bus, losses: losses, signals: signals)
        Log.info(reason.description)
        await keepRecording(recorder)
        await outputMute.restoreAtExit()
        if case .signal = reason { await NameOwnership.release(on: bus) }
        await notifier.withdrawLive()
        await notifier.settle()
        await sleepWatch?.close()
        return reason.exitStatus
    }

    /// A locale kept by hand (`de`, `de_AT`) or one the cached catalog no longer serves becomes the closest supported
    /// one, kept as a pick would keep it, and the journal says so.
    private static func realignKeptLocale(_ kept: String?, to known: ModelStore.Known, choice: LocaleChoice, environment: [String: String])
    {
        guard let kept else { return }
        let supported = known.supportedLocales
        let realigned = PreferredLocale.realigned(
            kept, supported: supported, catalogKnown: !known.catalog.supportedLocales.isEmpty, environment: environment)
        guard realigned != kept else { return }
        Log.info(
            "The locale kept in settings.json, \(kept.prefix(40)), is not one a model serves: transcribing in \(realigned), the closest")
        choice.pick(realigned)
    }

    /// A recording in progress is kept, paused, with a complete WAV file, rather than lost with the
    /// process; its memo stays `recording`, so the next start recovers it and transcribes it. One being
    /// processed is left as it is: the next start transcribes it again.
    private static func keepRecording(_ recorder: Recorder) async {
        guard let kept = await recorder.keepForExit() else { return }
        Log.info(
            "Kept the recording in progress: memo \(kept.recording), \(kept.audio.duration) s in \(kept.audio.file); it is transcribed at the next start"
        )
    }

    /// What the notifications' buttons and clicks do: the live notification's buttons send the commands
    /// of the bus methods of the same names, which nobody waits for, on the executor they share; an app's
    /// request is answered as `SetPermission` would.
    private static func controls(_ recorder: Recorder, viewer: MemoViewer, gate: AccessGate) -> Notifier.Controls {
        Notifier.Controls(
            perform: { action in
                recorder.assumeIsolated { recorder in
                    do throws(RecordingError) { try recorder.perform(action, for: .nobody) } catch {
                        Log.info("The notification's \(action.methodName) button: \(error.message)")
                    }
                }
            },
            open: viewer.open,
            answer: { app, allowed in gate.decide(app, allowed ? .allowed : .denied, how: "answered in the notification") })
    }

    /// Says which libvosk transcriptions will open, before the name is owned, so that the journal tells an
    /// installation that lacks it at start and not at the first transcription.
    private static func reportEngine(_ libraryCandidates: [String]) {
        if let vosk = VoskLibrary.firstPresent(in: libraryCandidates) {
            Log.info("Transcription engine: libvosk at \(vosk)")
        } else {
            Log.warning(
                "No libvosk.so in \(libraryCandidates.joined(separator: ", ")): unless the dynamic loader finds one, recordings are kept untranscribed until it is installed (`pip install vosk` and `make`)"
            )
        }
    }

    /// Whether the model in `path` loads; without libvosk there is nothing to check it with, and it is taken on
    /// its folder's shape alone.
    @Sendable private static func checkLoads(_ path: String, _ libraryCandidates: [String]) throws(UnloadableModel) {
        guard let library = try? VoskLibrary.load(searchingFrom: libraryCandidates) else { return }
        do throws(SpeechError) { _ = try SpeechModel(library: library, path: path) } catch { throw UnloadableModel(error.message) }
    }

    /// The folder of the running executable, where make puts libvosk.so.
    private static func executableDirectory() -> String {
        var buffer = [CChar](repeating: 0, count: 4096)
        let length = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard length > 0 else { return "." }
        let path = String(decoding: buffer[0..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return String(path[..<(path.lastIndex(of: "/") ?? path.endIndex)])
    }

    /// Recording ids are the start time in microseconds: unique, sortable, valid in object paths.
    @Sendable private static func newRecordingID() -> RecordingID {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        return RecordingID(String(Int64(time.tv_sec) * 1_000_000 + Int64(time.tv_nsec) / 1000))
    }
}
