import Dispatch
import Recording
import Synchronization

/// Decodes kept recordings again with a model the user names, one at a time, on a queue and an engine of its own:
/// a recording under way is never held up behind a memo being transcribed again, at the cost of a second model in
/// memory while one is. The model is released as soon as no decoding is waiting.
public final class Retranscriber: Sendable {
    private let queue = DispatchQueue(label: "org.notula.transcription.again")
    /// Only ever locked on `queue`.
    private let engine: Mutex<SpeechEngine>
    /// Decodings asked for and not yet over: the model stays loaded between them.
    private let pending = Atomic(0)

    public init(engine: sending SpeechEngine) {
        self.engine = Mutex(engine)
    }

    /// The transcript of `file` in `locale`, decoded by the model `model` of that locale.
    /// - Throws: `engineUnavailable` without libvosk, `modelUnavailable` when that model is not on disk, `failed` for a
    ///   file the engine cannot read or when the task was cancelled.
    public func transcript(ofFile file: String, in locale: String, model: String) async throws(RecordingError) -> Transcript {
        pending.add(1, ordering: .relaxed)
        let cancelled = CancellationFlag()
        let outcome = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Result<Transcript, RecordingError>, Never>) in
                queue.async { [self] in
                    let outcome = engine.withLock { engine in
                        defer { if pending.subtract(1, ordering: .relaxed).newValue == 0 { engine.release() } }
                        return Result { () throws(RecordingError) in
                            let (installed, speech) = try engine.model(for: locale, named: model)
                            Log.info("Transcribing \(file) again in \(locale) with \(installed.name)")
                            do throws(SpeechError) {
                                var transcript = try speech.transcribe(wavFile: file, unless: cancelled.isSet)
                                transcript.model = installed.name
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
