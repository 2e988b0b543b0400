import Dispatch
import Recording
import Speech
import Synchronization

/// Transcribes finished recordings from their files, on a queue of its own: decoding takes
/// seconds of CPU and must never hold the bus thread.
///
/// libvosk is loaded at the first transcription, not at start, so that a service that records
/// without transcribing costs nothing for it; a model stays loaded once used.
final class FileTranscriber: Sendable {
    private let libraryCandidates: [String]
    private let modelPlaces: [String]
    private let queue = DispatchQueue(label: "org.notula.transcription")
    private let library = Mutex<VoskLibrary?>(nil)
    private let models = Mutex<[String: SpeechModel]>([:])

    init(libraryCandidates: [String], modelPlaces: [String]) {
        self.libraryCandidates = libraryCandidates
        self.modelPlaces = modelPlaces
    }

    /// The locales whose models are on this machine.
    var installedLocales: [String] { InstalledModels.scan(places: modelPlaces).map(\.locale) }

    /// The text and word timings of the WAV file `path`, spoken in `locale`.
    /// - Throws: `engineUnavailable` without libvosk, `modelUnavailable` without a model for the
    ///   locale, `failed` for a file the engine cannot read.
    func transcribe(_ path: String, locale: String) async throws(RecordingError) -> Transcript {
        let outcome = await withCheckedContinuation { continuation in
            queue.async { continuation.resume(returning: self.transcribeNow(path, locale: locale)) }
        }
        return try outcome.get()
    }

    private func transcribeNow(_ path: String, locale: String) -> Result<Transcript, RecordingError> {
        Result { () throws(RecordingError) in
            let model = try self.model(for: locale)
            do throws(SpeechError) { return try model.transcribe(wavFile: path) } catch { throw RecordingError.failed(error.message) }
        }
    }

    private func model(for locale: String) throws(RecordingError) -> SpeechModel {
        if let loaded = models.withLock({ $0[locale] }) { return loaded }
        let library = try loadedLibrary()
        guard let installed = InstalledModels.scan(places: modelPlaces).first(where: { $0.locale == locale }) else {
            throw .modelUnavailable(
                "No speech model for \(locale) on this machine (looked in \(modelPlaces.joined(separator: ", "))).")
        }
        do throws(SpeechError) {
            let model = try SpeechModel(library: library, path: installed.path)
            models.withLock { $0[locale] = model }
            return model
        } catch {
            throw .modelUnavailable(error.message)
        }
    }

    private func loadedLibrary() throws(RecordingError) -> VoskLibrary {
        if let loaded = library.withLock({ $0 }) { return loaded }
        do throws(SpeechError) {
            let loaded = try VoskLibrary.load(searchingFrom: libraryCandidates)
            library.withLock { $0 = loaded }
            return loaded
        } catch {
            throw .engineUnavailable(error.message)
        }
    }
}
