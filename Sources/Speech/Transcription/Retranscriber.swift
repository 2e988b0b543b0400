import Dispatch
import Models
import Recording
import Synchronization

/// Decodes kept recordings again with a model the user names, one at a time, on a queue and engines of its own: a
/// recording under way is never held up behind a memo being transcribed again, at the cost of a second model for
/// the time (in notulad's memory for an engine whose `cost` says so). The model is released as soon as no decoding
/// is waiting.
public final class Retranscriber: Sendable {
    private let queue = DispatchQueue(label: "org.notula.transcription.again")
    /// Only ever locked on `queue`; the first is asked for a model no engine loads, to say why.
    private let engines: Mutex<[any SpeechEngine]>
    /// Decodings asked for and not yet over: the model stays loaded between them.
    private let pending = Atomic(0)
    /// Where models are looked for: the one named picks its engine.
    private let modelPlaces: [String]

    /// - Parameter engines: one per kind of model a memo may be transcribed with, at least one.
    public init(engines: sending [any SpeechEngine], modelPlaces: [String]) {
        precondition(!engines.isEmpty, "a retranscriber needs an engine")
        self.engines = Mutex(engines)
        self.modelPlaces = modelPlaces
    }

    /// The transcript of `file` in `locale`, decoded by the model `model` of that locale, with the engine that loads it.
    /// - Throws: `engineUnavailable` without that engine's library, `modelUnavailable` when that model is not on disk,
    ///   `failed` for a file the engine cannot read or when the task was cancelled.
    public func transcript(ofFile file: String, in locale: String, model: String) async throws(RecordingError) -> Transcript {
        let named = InstalledModels.all(places: modelPlaces).first { $0.locale == locale && $0.name == model }
        pending.add(1, ordering: .relaxed)
        let cancelled = CancellationFlag()
        let outcome = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Result<Transcript, RecordingError>, Never>) in
                queue.async { [self] in
                    let outcome = engines.withLock { engines in
                        defer { if pending.subtract(1, ordering: .relaxed).newValue == 0 { engines.forEach { $0.release() } } }
                        let engine = named.flatMap { named in engines.first { $0.loads(named) } } ?? engines[0]
                        return Result { () throws(RecordingError) in
                            let speech = try engine.model(for: locale, named: model)
                            let place = engine.cost.memory == .inHelper ? ", in its helper process" : ""
                            Log.info("Transcribing \(file) again in \(locale) with \(speech.installed.name)\(place)")
                            do throws(SpeechError) {
                                var transcript = try speech.transcribe(wavFile: file, unless: cancelled.isSet)
                                transcript.model = speech.installed.name
                                return transcript
                            } catch {
                                throw .failed(error.message)
                            }
                        }
                    }
                    continuation.resume(returning: outcome)
                }
            }
        } onCancel: {
            cancelled.set()
        }
        return try outcome.get()
    }
}
