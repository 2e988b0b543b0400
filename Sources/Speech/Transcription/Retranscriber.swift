import Dispatch
import Models
import Recording
import Synchronization

/// Decodes kept recordings again with a model the user names, one at a time, on a queue and an engine of its own:
/// a recording under way is never held up behind a memo being transcribed again, at the cost of a second model in
/// memory while one is. The model is released as soon as no decoding is waiting. A Whisper model decodes in its
/// helper process (`WhisperHelper`).
public final class Retranscriber: Sendable {
    private let queue = DispatchQueue(label: "org.notula.transcription.again")
    /// Only ever locked on `queue`.
    private let engine: Mutex<any SpeechEngine>
    /// Decodings asked for and not yet over: the model stays loaded between them.
    private let pending = Atomic(0)

    private let whisper: WhisperHelper?
    /// Where models are looked for: the name asked for may be a Whisper model's.
    private let modelPlaces: [String]

    /// - Parameter whisper: the helper a Whisper model decodes in; nil without libwhisper.
    public init(engine: sending any SpeechEngine, whisper: WhisperHelper?, modelPlaces: [String]) {
        self.engine = Mutex(engine)
        self.whisper = whisper
        self.modelPlaces = modelPlaces
    }

    /// The transcript of `file` in `locale`, decoded by the model `model` of that locale.
    /// - Throws: `engineUnavailable` without libvosk, `modelUnavailable` when that model is not on disk, `failed` for a
    ///   file the engine cannot read or when the task was cancelled.
    public func transcript(ofFile file: String, in locale: String, model: String) async throws(RecordingError) -> Transcript {
        let named = InstalledModels.all(places: modelPlaces).first { $0.locale == locale && $0.name == model }
        if let named, named.kind == .whisper { return try await whisperTranscript(ofFile: file, by: named) }
        pending.add(1, ordering: .relaxed)
        let cancelled = CancellationFlag()
        let outcome = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Result<Transcript, RecordingError>, Never>) in
                queue.async { [self] in
                    let outcome = engine.withLock { engine in
                        defer { if pending.subtract(1, ordering: .relaxed).newValue == 0 { engine.release() } }
                        return Result { () throws(RecordingError) in
                            let speech = try engine.model(for: locale, named: model)
                            Log.info("Transcribing \(file) again in \(locale) with \(speech.installed.name)")
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

    private func whisperTranscript(ofFile file: String, by model: InstalledModel) async throws(RecordingError) -> Transcript {
        guard let whisper else {
            throw .engineUnavailable("libwhisper was not found: run `make`, or point NOTULA_WHISPER_LIBRARY at its libwhisper.so.1.")
        }
        Log.info("Transcribing \(file) again in \(model.locale) with \(model.name), in the Whisper helper")
        do throws(SpeechError) {
            let language = WhisperLanguages.code(forTag: model.locale) ?? "auto"
            return Transcript(segments: try await whisper.transcribe(file: file, model: model.path, language: language), model: model.name)
        } catch {
            throw .failed(error.message)
        }
    }

}
