import Recording

/// libvosk and the one model in memory, loaded when first needed and released when told.
///
/// Not thread-safe: the transcriber's queue owns it. One model at a time, because a small model holds a few
/// hundred MB (500 MB for the Korean one) and a recording is transcribed in one locale.
public final class SpeechEngine {
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

    /// The model in memory.
    var loadedModel: InstalledModel? { loaded?.installed }

    /// The model recordings in `locale` use, loaded now (a second or two) unless it already is; another is released.
    /// - Parameter named: a model of the locale to use instead of the chosen one.
    /// - Throws: `engineUnavailable` without libvosk, `modelUnavailable` without that model on disk.
    func model(for locale: String, named: String? = nil) throws(RecordingError) -> (installed: InstalledModel, model: SpeechModel) {
        let installed = InstalledModels.all(places: modelPlaces)
        let wanted =
            named.map { name in installed.first { $0.locale == locale && $0.name == name } }
            ?? InstalledModels.inUse(for: locale, among: installed, chosen: choices[locale])
        if let loaded, loaded.installed == wanted { return loaded }
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
            return (wanted, model)
        } catch {
            throw .modelUnavailable(error.message)
        }
    }

    /// Frees the model in memory, giving its pages back to the system.
    func release() {
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
extension SpeechEngine: Sendable {}
