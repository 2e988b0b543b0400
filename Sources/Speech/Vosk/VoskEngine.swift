import Models
import Recording

/// libvosk and the one model in memory, loaded when first needed and released when told.
///
/// One model at a time, because a small model holds a few hundred MB (500 MB for the Korean one).
public final class VoskEngine: SpeechEngine {
    private let libraryCandidates: [String]
    private let modelPlaces: [String]
    private let choices: ModelChoices
    private let memory: ModelMemory
    private var library: VoskLibrary?
    private var loaded: (installed: InstalledModel, model: SpeechModel)?

    /// - Parameters:
    ///   - choices: the model the user chose per locale; a locale without one uses its best model on disk.
    ///   - memory: told what each model takes when loaded.
    public init(
        libraryCandidates: [String], modelPlaces: [String], choices: ModelChoices = ModelChoices([:]), memory: ModelMemory = ModelMemory()
    ) {
        self.libraryCandidates = libraryCandidates
        self.modelPlaces = modelPlaces
        self.choices = choices
        self.memory = memory
    }

    /// Vosk's own kinds: every model but Whisper's.
    public func loads(_ model: InstalledModel) -> Bool { model.isLive }

    /// A recognizer decodes on the thread that feeds it.
    public var cost: EngineCost { EngineCost(memory: .inProcess, cores: 1) }

    /// Loading a model takes a second or two.
    public func model(for locale: String, named: String?) throws(RecordingError) -> any LoadedSpeechModel {
        let installed = InstalledModels.all(places: modelPlaces)
        let wanted =
            named.map { name in installed.first { $0.locale == locale && $0.name == name && loads($0) } }
            ?? InstalledModels.inUse(for: locale, among: installed, chosen: choices[locale])
        if let loaded, loaded.installed == wanted { return LoadedVoskModel(installed: loaded.installed, model: loaded.model) }
        release()
        // The model first: without one, libvosk is not worth its 26 MB of mappings.
        guard let wanted else {
            let what = named.map { "The speech model \($0) of \(locale) is not" } ?? "No speech model for \(locale) is"
            throw .modelUnavailable("\(what) on this machine (looked in \(modelPlaces.joined(separator: ", "))).")
        }
        let library = try loadedLibrary()
        let (started, residentBefore) = (ContinuousClock.now, residentBytes())
        do throws(SpeechError) {
            let model = try SpeechModel(library: library, path: wanted.path)
            loaded = (wanted, model)
            let taken = max(0, residentBytes() - residentBefore)
            memory.record(UInt64(taken), for: wanted.name)
            let megabytes = taken / 1_000_000
            Log.info(
                "Loaded the \(locale) speech model \(wanted.name) from \(wanted.path) in \(started.duration(to: .now)), \(megabytes) MB in memory"
            )
            return LoadedVoskModel(installed: wanted, model: model)
        } catch {
            throw .modelUnavailable(error.message)
        }
    }

    public func release() {
        guard let installed = loaded?.installed else { return }
        loaded = nil
        // The model's memory is hundreds of small blocks; without a trim, glibc keeps them for the process.
        returnFreedMemory()
        Log.info("Released the \(installed.locale) speech model \(installed.name) from memory")
    }

    private func loadedLibrary() throws(RecordingError) -> VoskLibrary {
        if let library { return library }
        do throws(SpeechError) {
            let loaded = try VoskLibrary.load(searchingFrom: libraryCandidates)
            library = loaded
            return loaded
        } catch {
            throw .engineUnavailable(error.message)
        }
    }
}

@available(*, unavailable)
extension VoskEngine: Sendable {}

/// A Vosk model in memory, as the engine hands it out.
struct LoadedVoskModel: LoadedSpeechModel {
    let installed: InstalledModel
    let model: SpeechModel

    func transcribe(wavFile path: String, unless isCancelled: () -> Bool) throws(SpeechError) -> Transcript {
        try model.transcribe(wavFile: path, unless: isCancelled)
    }

    func hearing() throws(SpeechError) -> (any SpeechStream)? { try BlockRecognition(model: model) }

    /// Vosk hears the whole recording: its utterances end as it goes.
    var utterances: (any UtteranceDecoding)? { nil }
}

extension BlockRecognition: SpeechStream {}
