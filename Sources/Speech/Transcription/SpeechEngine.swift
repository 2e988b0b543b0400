import Recording

/// libvosk and the one model in memory, loaded when first needed and released when told.
///
/// Not thread-safe: the transcriber's queue owns it. One model at a time, because a small model holds a few
/// hundred MB (500 MB for the Korean one) and a recording is transcribed in one locale.
public final class SpeechEngine {
    private let libraryCandidates: [String]
    private let modelPlaces: [String]
    private var library: VoskLibrary?
    private var loaded: (locale: String, model: SpeechModel)?

    public init(libraryCandidates: [String], modelPlaces: [String]) {
        self.libraryCandidates = libraryCandidates
        self.modelPlaces = modelPlaces
    }

    /// The locale whose model is in memory.
    var loadedLocale: String? { loaded?.locale }

    /// The model for `locale`, loaded now (a second or two) unless it already is; another locale's is released.
    /// - Throws: `engineUnavailable` without libvosk, `modelUnavailable` without a model for the locale on disk.
    func model(for locale: String) throws(RecordingError) -> SpeechModel {
        if let loaded, loaded.locale == locale { return loaded.model }
        release()
        // The model first: without one, libvosk is not worth its 26 MB of mappings.
        guard let installed = InstalledModels.scan(places: modelPlaces).first(where: { $0.locale == locale }) else {
            throw .modelUnavailable("No speech model for \(locale) on this machine (looked in \(modelPlaces.joined(separator: ", "))).")
        }
        let library = try loadedLibrary()
        let started = ContinuousClock.now
        do throws(SpeechError) {
            let model = try SpeechModel(library: library, path: installed.path)
            loaded = (locale, model)
            Log.info("Loaded the \(locale) speech model from \(installed.path) in \(started.duration(to: .now))")
            return model
        } catch {
            throw .modelUnavailable(error.message)
        }
    }

    /// Frees the model in memory, giving its pages back to the system.
    func release() {
        guard let locale = loaded?.locale else { return }
        loaded = nil
        // The model's memory is hundreds of small blocks; without a trim, glibc keeps them for the process.
        returnFreedMemory()
        Log.info("Released the \(locale) speech model from memory")
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
