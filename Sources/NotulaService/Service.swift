import Audio
import DBus
import Dispatch
import FoundationEssentials
import Notifying
import Recording
import Speech

#if canImport(Glibc)
    import Glibc
#endif

/// The running service: the bus connection, the recorder and its objects.
public enum Service {
    /// Runs until SIGTERM/SIGINT or until the bus goes away; returns the exit status.
    public static func run(_ options: ServiceOptions) async -> Int32 {
        if options.verbose { Log.enableDebug() }
        let paths = Paths()
        let settings = Settings.load(from: paths.settingsFile)
        let bus: Bus
        do { bus = try await Bus.connect(.session) } catch {
            Log.error("Cannot connect to the session bus: \(error.message)")
            return 1
        }
        let source = options.source ?? settings.source
        let environment = ProcessInfo.processInfo.environment
        let places = ModelPlaces(
            all: InstalledModels.defaultPlaces(environment: environment), notula: paths.models, downloads: paths.downloads)
        let libraryCandidates = VoskLibrary.defaultCandidates(environment: environment, executableDirectory: executableDirectory())
        let engine = SpeechEngine(libraryCandidates: libraryCandidates, modelPlaces: places.all)
        let catalogAddress =
            environment["NOTULA_MODEL_CATALOG"].flatMap { $0.isEmpty ? nil : $0 } ?? settings.modelCatalog ?? ModelCatalog.address
        let catalogSource = CatalogSource(address: catalogAddress, cacheFolder: paths.cache)
        let known = ModelStore.Known(
            catalog: catalogSource.cached() ?? ModelCatalog(entries: []), installed: InstalledModels.scan(places: places.all))
        // A first start guesses from the user's locale, without keeping the guess: a catalog fetched later may guess better.
        let locale = LocaleChoice(
            initial: settings.locale ?? PreferredLocale.fromEnvironment(environment, supported: known.supportedLocales),
            settingsFile: paths.settingsFile)
        let notifier = Notifier(
            isolation: bus, server: BusNotificationServer(bus: bus), texts: .forEnvironment(environment), log: { Log.info($0) })
        let transcriber = Transcriber(engine: engine, idleRelease: settings.modelIdleRelease, currentLocale: { locale.current })
        let models = ModelStore(
            bus: bus, places: places, known: known, catalogSource: catalogSource, transcriber: transcriber, notifier: notifier,
            loads: { path throws(SpeechError) in try checkLoads(path, libraryCandidates) })
        let memos: MemoLibrary
        do {
            memos = try MemoLibrary(
                bus: bus, store: paths.library, recordingsFolder: paths.recordings, transcriber: transcriber, models: models)
            try await memos.open()
        } catch {
            Log.error("Cannot open the memo library \(paths.library): \(error)")
            return 1
        }
        let capture = PulseCapture(
            recordingsDirectory: paths.recordings, source: source, isolation: bus, listener: CaptureListeners([transcriber, memos]))
        let recorder = Recorder(
            isolation: bus, clock: MonotonicSystemClock(), capture: capture, processing: memos,
            reporter: Reporters(surfaces: [
                RecorderSignals(bus: bus), NotificationReporter(notifier: notifier, memos: memos, locale: locale),
            ]),
            makeRecordingID: newRecordingID)
        await notifier.start(controls(recorder, viewer: MemoViewer(folder: paths.transcripts, memos: memos)))
        await bus.export(
            NotulaBus.recorderPath, interfaces: [RecorderObject.interface(recorder, locale: locale, models: models, bus: bus)])
        await bus.export(NotulaBus.modelsPath, interfaces: [ModelsObject.interface(models)])
        let sleepWatch = await SleepWatch.start(pausing: recorder)

        // Objects first, then the name: an activated service receives calls the moment it owns it.
        do {
            let result = try await bus.requestName(NotulaBus.name)
            guard result == .primaryOwner || result == .alreadyOwner else {
                Log.error(await ownerDescription(on: bus))
                return 2
            }
        } catch {
            Log.error("Cannot own \(NotulaBus.name): \(error.message)")
            return 1
        }
        let installed = await models.installedLocales
        Log.info(
            "Ready on the session bus as \(NotulaBus.name) (\(await bus.uniqueName)); recording from \(source ?? "the default source") into \(paths.recordings); transcribing in \(locale.current) (models here: \(installed.isEmpty ? "none" : installed.joined(separator: ", ")))"
        )
        Task {
            // Once a day at most: fetching loads libcurl and its TLS libraries, megabytes the service then keeps.
            if !catalogSource.isCacheFresh(maximumAge: .seconds(86_400)) {
                do throws(BusError) { try await models.refresh() } catch { Log.warning(error.message) }
            }
            await models.installIfMissing(locale.current)
        }

        let (stopReasons, stop) = AsyncStream.makeStream(of: StopReason.self)
        let signalSources = [SIGTERM, SIGINT].map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { stop.yield(.signal(number)) }
            source.resume()
            return source
        }
        Task {
            await bus.waitUntilDisconnected()
            stop.yield(.busLost)
        }
        var reasons = stopReasons.makeAsyncIterator()
        let reason = await reasons.next() ?? .busLost
        signalSources.forEach { $0.cancel() }
        Log.info(reason.description)
        await finishRecording(recorder)
        await notifier.settle()
        await sleepWatch?.close()
        return reason.exitStatus
    }

    private enum StopReason: Sendable, CustomStringConvertible {
        case signal(Int32)
        case busLost

        var description: String {
            switch self {
            case .signal(let number): "Stopping on signal \(number)"
            case .busLost: "Lost the connection to the session bus"
            }
        }

        var exitStatus: Int32 {
            switch self {
            case .signal: 0
            case .busLost: 1
            }
        }
    }

    /// A recording in progress is kept, as a memo, rather than lost with the process.
    private static func finishRecording(_ recorder: Recorder) async {
        let state = await recorder.state
        if state == .recording || state == .paused {
            _ = try? await recorder.process()
            Log.info("Kept the recording in progress")
        }
        await recorder.settle()
    }

    /// What the notifications' buttons and clicks do: the live notification's buttons run the
    /// transitions of the bus methods of the same names, on the executor they share.
    private static func controls(_ recorder: Recorder, viewer: MemoViewer) -> Notifier.Controls {
        Notifier.Controls(
            perform: { action in
                recorder.assumeIsolated { recorder in
                    do throws(RecordingError) { _ = try RecorderObject.perform(action, on: recorder) } catch {
                        Log.info("The notification's \(action.methodName) button: \(error.message)")
                    }
                }
            },
            open: viewer.open)
    }

    private static func ownerDescription(on bus: Bus) async -> String {
        guard let owner = try? await bus.owner(of: NotulaBus.name) else {
            return "\(NotulaBus.name) is already owned by another connection"
        }
        let pid = (try? await bus.processID(of: owner)).map { " (pid \($0))" } ?? ""
        return "\(NotulaBus.name) is already owned by \(owner)\(pid): another notulad is running"
    }

    /// Whether the model in `path` loads; without libvosk there is nothing to check it with, and it is taken on
    /// its folder's shape alone.
    @Sendable private static func checkLoads(_ path: String, _ libraryCandidates: [String]) throws(SpeechError) {
        guard let library = try? VoskLibrary.load(searchingFrom: libraryCandidates) else { return }
        _ = try SpeechModel(library: library, path: path)
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
