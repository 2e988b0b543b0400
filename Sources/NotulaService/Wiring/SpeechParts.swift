import Models
import Recording
import Speech

#if canImport(Glibc)
    import Glibc
#endif

/// What transcription is made of before anything runs: where models and the engines' libraries are, the catalogs and
/// what is known of them, the user's model choices.
struct SpeechParts {
    let places: ModelPlaces
    let libraryCandidates: [String]
    let choices: ModelChoices
    let accurateChoices: ModelChoices
    let memory: ModelMemory
    let catalogSource: CatalogSource
    let accurateCatalogSources: [ModelStore.AccurateCatalog: CatalogSource]
    let known: ModelStore.Known
    /// Whisper and sherpa-onnx behind the engine door, decoding in one helper process for the accurate pass and memos
    /// transcribed again: one of their models in memory at most.
    let whisper: WhisperEngine
    let sherpa: SherpaEngine
    /// Silero's detector beside sherpa-onnx, which ends the utterances of a recording no Vosk model follows.
    let voiceDetection: VoiceDetection?

    /// The engines whose models the accurate pass may be chosen from: those whose library is on this machine.
    var accurateEngines: [any SpeechEngine & Sendable] {
        (whisper.isAvailable ? [whisper] : []) + (sherpa.isAvailable ? [sherpa] : [])
    }

    /// - Parameter vocabulary: the user's terms as they are now, which prompt Whisper.
    static func make(
        settings: Settings, paths: Paths, environment: [String: String], vocabulary: @escaping @Sendable () -> [String]
    ) -> SpeechParts {
        let places = ModelPlaces(
            all: InstalledModels.defaultPlaces(environment: environment), notula: paths.models, downloads: paths.downloads)
        let directory = executableDirectory()
        let libraryCandidates = VoskLibrary.defaultCandidates(environment: environment, executableDirectory: directory)
        reportEngine(libraryCandidates)
        let choices = ModelChoices(settings.models ?? [:]) { chosen in Settings.update(at: paths.settingsFile) { $0.models = chosen } }
        let accurateChoices = ModelChoices(settings.accurateModels ?? [:]) { chosen in
            Settings.update(at: paths.settingsFile) { $0.accurateModels = chosen }
        }
        let memory = ModelMemory()
        let libraries = DecodingHelper.Libraries(
            whisper: WhisperLibrary.firstPresent(
                in: WhisperLibrary.defaultCandidates(environment: environment, executableDirectory: directory)),
            sherpa: SherpaLibrary.firstPresent(
                in: SherpaLibrary.defaultCandidates(environment: environment, executableDirectory: directory)))
        // A catalog is offered only where its engine's library is: a model downloaded for none would never run.
        let engines = Set<ModelStore.AccurateCatalog>(
            (libraries.whisper == nil ? [] : [.whisper]) + (libraries.sherpa == nil ? [] : [.sherpa]))
        let catalogs = CatalogSources(settings: settings, paths: paths, environment: environment, engines: engines)
        let helper = DecodingHelper(executable: "/proc/self/exe", libraries: libraries, idleRelease: settings.modelIdleRelease)
        return SpeechParts(
            places: places, libraryCandidates: libraryCandidates, choices: choices, accurateChoices: accurateChoices, memory: memory,
            catalogSource: catalogs.vosk, accurateCatalogSources: catalogs.accurate,
            known: ModelStore.Known(
                catalog: catalogs.vosk.cached() ?? ModelCatalog(entries: []),
                whisperCatalog: catalogs.known(.whisper, builtIn: WhisperCatalog.builtIn),
                sherpaCatalog: catalogs.known(.sherpa, builtIn: SherpaCatalog.builtIn),
                installed: InstalledModels.all(places: places.all)),
            whisper: WhisperEngine(
                helper: helper.libraries.whisper == nil ? nil : helper, modelPlaces: places.all, vocabulary: vocabulary),
            sherpa: SherpaEngine(helper: helper.libraries.sherpa == nil ? nil : helper, modelPlaces: places.all),
            voiceDetection: VoiceDetection(executable: "/proc/self/exe", library: libraries.sherpa))
    }

    /// A catalog not fetched for a day: fetched again once the objects are there.
    var catalogIsStale: Bool {
        ([catalogSource] + accurateCatalogSources.values).contains { !$0.isCacheFresh(maximumAge: .seconds(86_400)) }
    }

    /// Whether the model in `path` loads: a Vosk model in libvosk, a sherpa-onnx one in the decoding helper. Without
    /// the engine's library there is nothing to check it with, and it is taken on its files alone, as a Whisper
    /// model is (its SHA-1 and magic checked).
    var loadCheck: ModelLoadCheck {
        { [libraryCandidates, sherpa] path, kind throws(UnloadableModel) in
            if kind.isSherpa {
                do throws(SpeechError) { try sherpa.checkLoads(folder: path, kind: kind) } catch { throw UnloadableModel(error.message) }
                return
            }
            guard !kind.isAccurate, let library = try? VoskLibrary.load(searchingFrom: libraryCandidates) else { return }
            do throws(SpeechError) { _ = try SpeechModel(library: library, path: path) } catch { throw UnloadableModel(error.message) }
        }
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

    /// The folder of the running executable, where make puts libvosk.so.
    private static func executableDirectory() -> String {
        var buffer = [CChar](repeating: 0, count: 4096)
        let length = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard length > 0 else { return "." }
        let path = String(decoding: buffer[0..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return String(path[..<(path.lastIndex(of: "/") ?? path.endIndex)])
    }
}

/// Where the catalogs come from, each fetched by notulad run again for the purpose: libcurl and its TLS libraries
/// never enter the service.
private struct CatalogSources {
    let vosk: CatalogSource
    /// The accurate pass's catalogs named instead of the built-in lists (a mirror, a test's server):
    /// `NOTULA_WHISPER_CATALOG`, `NOTULA_SHERPA_CATALOG`.
    let accurate: [ModelStore.AccurateCatalog: CatalogSource]

    /// The accurate engines whose library is on this machine: the others' catalogs are empty.
    let engines: Set<ModelStore.AccurateCatalog>

    init(settings: Settings, paths: Paths, environment: [String: String], engines: Set<ModelStore.AccurateCatalog>) {
        self.engines = engines
        let address = environment["NOTULA_MODEL_CATALOG"].flatMap { $0.isEmpty ? nil : $0 } ?? settings.modelCatalog ?? ModelCatalog.address
        vosk = CatalogSource(address: address, cacheFolder: paths.cache, fetcher: .helper(executable: "/proc/self/exe"))
        let variables: [ModelStore.AccurateCatalog: String] = [.whisper: "NOTULA_WHISPER_CATALOG", .sherpa: "NOTULA_SHERPA_CATALOG"]
        accurate = variables.filter { engines.contains($0.key) }.compactMapValues { variable in
            environment[variable].flatMap {
                $0.isEmpty ? nil : CatalogSource(address: $0, cacheFolder: paths.cache, fetcher: .helper(executable: "/proc/self/exe"))
            }
        }
    }

    /// The catalog of `engine` known at start: the named one's cached copy (empty until fetched), else the built-in;
    /// empty without the engine's library.
    func known(_ engine: ModelStore.AccurateCatalog, builtIn: ModelCatalog) -> ModelCatalog {
        guard engines.contains(engine) else { return ModelCatalog(entries: []) }
        return accurate[engine].map { $0.cached() ?? ModelCatalog(entries: []) } ?? builtIn
    }
}
