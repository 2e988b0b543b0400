import Dispatch
import Models
import Recording
import Synchronization

/// Transcribes each recording while it is captured, so that its text is ready the moment it is sent; a recording
/// that could not be followed live (no model yet when it started) is transcribed from its file.
///
/// Decoding runs on a queue of its own, never on the bus thread nor on the few threads Swift's tasks share: it
/// takes seconds of CPU. Samples, starts and ends are queued in the order the capture reports them, so the
/// samples that arrive while a model loads wait in the queue and are caught up after.
///
/// The model is held while it is useful (from a locale pick or the start of a recording) and released after
/// `idleRelease` without use.
public final class Transcriber: CapturedAudioListener, ModelPreparing {
    private let queue = DispatchQueue(label: "org.notula.transcription")
    /// Only ever locked on `queue`.
    private let work: Mutex<Work>
    /// The locale each recording is transcribed in: the one picked when it started.
    private let recordingLocales = Mutex<[RecordingID: String]>([:])
    private let currentLocale: @Sendable () -> String
    private let idleRelease: Duration
    /// Who follows the text while it is decoded; nobody when nil.
    private let liveText: (any LiveTextListener)?
    /// Which recordings Whisper writes again, utterance by utterance; none when nil.
    private let accurate: AccurateModels?

    private struct Work {
        let engine: any SpeechEngine
        var live: LiveTranscription?
        /// The text of recordings that went on as another at the length limit, until their memo asks for it.
        var continued: [RecordingID: LiveTranscription.Streamed] = [:]
        /// Counts uses of the model, so that a release scheduled before the last use lets it be.
        var uses = 0
    }

    public init(
        engine: sending any SpeechEngine, idleRelease: Duration, currentLocale: @escaping @Sendable () -> String,
        liveText: (any LiveTextListener)? = nil, accurate: AccurateModels? = nil
    ) {
        work = Mutex(Work(engine: engine))
        self.accurate = accurate
        self.idleRelease = idleRelease
        self.currentLocale = currentLocale
        self.liveText = liveText
    }

    /// The locale `recording` is transcribed in.
    public func locale(of recording: RecordingID) -> String {
        recordingLocales.withLock { $0[recording] } ?? currentLocale()
    }

    /// Loads the model of `locale` ahead of the next recording, when it is on disk.
    public func prepare(_ locale: String) {
        queue.async { [self] in
            work.withLock { work in
                do throws(RecordingError) { _ = try work.engine.model(for: locale) } catch {
                    Log.info("Not loading a speech model for \(locale) yet: \(error)")
                }
                scheduleRelease(&work)
            }
        }
    }

    /// Loads the model of `locale` when it is the one recordings are transcribed in: it was just installed.
    public func prepareIfPicked(_ locale: String) {
        if locale == currentLocale() { prepare(locale) }
    }

    // MARK: CapturedAudioListener (the PulseAudio thread)

    public func captureStarted(_ recording: RecordingID, locale: String) {
        recordingLocales.withLock { $0[recording] = locale }
        queue.async { [self] in
            work.withLock { work in work.live = follow(recording, in: locale, by: work.engine) }
        }
    }

    public func captured(_ samples: UnsafeRawBufferPointer, of recording: RecordingID) {
        let bytes = [UInt8](samples)
        queue.async { [self] in
            work.withLock { work in
                if work.live?.recording == recording { work.live?.append(bytes) }
            }
        }
    }

    public func captureContinued(_ previous: RecordingID, as next: RecordingID) {
        let locale = recordingLocales.withLock { locales in
            let locale = locales[previous] ?? currentLocale()
            locales[next] = locale
            return locale
        }
        queue.async { [self] in
            work.withLock { work in
                guard var live = work.live, live.recording == previous else { return }
                let streamed = live.finish()
                if let streamed { work.continued[previous] = streamed }
                // With the accurate pass, its end is told once its text is, when its memo asks for it.
                if streamed?.accurate == nil { liveText?.ended(previous) }
                work.live = follow(next, in: locale, by: work.engine)
            }
        }
    }

    /// The text of a sent recording is asked for with its file (`transcript(of:file:)`), which ends its decoding.
    public func captureEnded(_ recording: RecordingID) {}

    public func captureDropped(_ recording: RecordingID) {
        recordingLocales.withLock { $0[recording] = nil }
        queue.async { [self] in
            work.withLock { work in
                guard work.live?.recording == recording else { return }
                work.live?.accurate?.pass.cancel()
                work.live = nil
                liveText?.ended(recording)
                scheduleRelease(&work)
            }
        }
    }

    // MARK: Transcripts

    /// The transcript of a recording whose capture has ended: the one decoded while it was captured, or else
    /// decoded now from `file`.
    /// - Throws: `engineUnavailable` without libvosk, `modelUnavailable` without a model for its locale,
    ///   `failed` for a file the engine cannot read.
    /// - Parameter chosenLocale: the locale of a memo recovered at start, whose capture this transcriber never saw.
    public func transcript(of recording: RecordingID, file: String, in chosenLocale: String? = nil) async throws(RecordingError)
        -> Transcript
    {
        let locale = chosenLocale ?? locale(of: recording)
        defer { recordingLocales.withLock { $0[recording] = nil } }
        let cancelled = CancellationFlag()
        let outcome: Result<LiveTranscription.Streamed, RecordingError> = await withTaskCancellationHandler {
            await onQueue { work in
                let streamed =
                    work.live?.recording == recording ? work.live?.finish() : work.continued.removeValue(forKey: recording)
                if work.live?.recording == recording {
                    work.live = nil
                    // With the accurate pass, its last revised lines come first.
                    if streamed?.accurate == nil { self.liveText?.ended(recording) }
                }
                if let streamed {
                    Log.info("Recording \(recording): the text decoded while it was captured is complete")
                    return .success(streamed)
                }
                Log.info("Recording \(recording): transcribing its file in \(locale)")
                return Result { () throws(RecordingError) in
                    LiveTranscription.Streamed(
                        transcript: try Self.transcribe(file, of: recording, in: locale, by: work.engine, unless: cancelled), accurate: nil)
                }
            }
        } onCancel: {
            cancelled.set()
        }
        let streamed: LiveTranscription.Streamed
        do throws(RecordingError) { streamed = try outcome.get() } catch .modelUnavailable(let reason) {
            guard let transcript = try await whisperTranscript(of: file, in: locale) else { throw .modelUnavailable(reason) }
            return transcript
        }
        guard let pass = streamed.accurate, let limit = accurate?.finishLimit else { return streamed.transcript }
        defer { liveText?.ended(recording) }
        // Cancelled with the recording: the decodings queued stop.
        return await withTaskCancellationHandler {
            await pass.finish(within: limit, vosk: streamed.transcript)
        } onCancel: {
            pass.cancel()
        }
    }

    /// A recording's file decoded by the locale's Whisper model where no Vosk model serves it; nil without one.
    private func whisperTranscript(of file: String, in locale: String) async throws(RecordingError) -> Transcript? {
        do throws(SpeechError) { return try await accurate?.transcript(ofFile: file, in: locale) } catch .cancelled {
            throw .failed("The recording was discarded.")
        } catch {
            throw .failed(error.message)
        }
    }

    /// Decodes a recording's file on the transcription queue.
    private static func transcribe(
        _ file: String, of recording: RecordingID, in locale: String, by engine: any SpeechEngine, unless cancelled: CancellationFlag
    ) throws(RecordingError) -> Transcript {
        let model = try engine.model(for: locale)
        do throws(SpeechError) {
            var transcript = try model.transcribe(wavFile: file, unless: cancelled.isSet)
            transcript.model = model.installed.name
            return transcript
        } catch .cancelled {
            Log.info("Recording \(recording): the transcription of its file stopped, as it was discarded")
            throw .failed("The recording was discarded.")
        } catch {
            throw .failed(error.message)
        }
    }

    private func onQueue<Success: Sendable>(
        _ body: @escaping @Sendable (inout Work) -> Result<Success, RecordingError>
    ) async -> Result<Success, RecordingError> {
        await withCheckedContinuation { continuation in
            queue.async { [self] in
                let result = work.withLock { work in
                    defer { scheduleRelease(&work) }
                    return body(&work)
                }
                continuation.resume(returning: result)
            }
        }
    }

    /// The live transcription of a capture that starts, told to `liveText` as it is decoded; without a model, the
    /// recording waits for its file.
    private func follow(_ recording: RecordingID, in locale: String, by engine: any SpeechEngine) -> LiveTranscription {
        do throws(RecordingError) {
            let (installed, recognition) = try Self.recognition(of: locale, by: engine)
            let liveText = liveText
            let pass = accurate?.pass(for: locale) { utterance, text in liveText?.heard(.revised(utterance: utterance, text), of: recording)
            }
            let audio = UtteranceAudio()
            if liveText != nil || pass != nil {
                recognition.follow(
                    LiveHearing(
                        wantsPartials: { liveText?.isFollowed ?? false },
                        heard: { speech in
                            // Each utterance with words goes to Whisper with its audio, padded.
                            if let pass, case .final(let utterance) = speech, let first = utterance.words.first,
                                let end = utterance.words.last?.end
                            {
                                pass.add(utterance, from: first.start, to: end, of: audio)
                            }
                            liveText?.heard(speech, of: recording)
                        }))
            }
            if let pass { liveText?.heard(.accuratePass(model: pass.model.installed.name), of: recording) }
            Log.info(
                "Recording \(recording) is transcribed in \(locale) with \(installed.name)\(pass.map { ", each utterance again with \($0.model.installed.name)" } ?? "")"
            )
            var live = LiveTranscription(recording: recording, locale: locale, model: installed.name, recognition: recognition)
            live.accurate = pass.map { ($0, audio) }
            // Without an accurate pass nothing writes the live model's words again: Silero keeps those heard in speech.
            if pass == nil { live.speechStretches = accurate?.speechStretches() }
            return live
        } catch {
            let liveText = liveText
            if let pass = accurate?.pass(for: locale, alone: true, revised: { liveText?.heard(.revised(utterance: $0, $1), of: recording) })
            {
                Log.info("Recording \(recording) is transcribed in \(locale) by \(pass.model.installed.name) alone, utterance by utterance")
                liveText?.heard(.accuratePass(model: pass.model.installed.name), of: recording)
                var live = LiveTranscription(recording: recording, locale: locale, model: pass.model.installed.name, recognition: nil)
                live.accurate = (pass, UtteranceAudio())
                live.cutter = accurate?.utteranceEnding()
                return live
            }
            Log.info("Recording \(recording) is transcribed from its file once sent: \(error)")
            return LiveTranscription(recording: recording, locale: locale, model: "", recognition: nil)
        }
    }

    private static func recognition(of locale: String, by engine: any SpeechEngine) throws(RecordingError) -> (
        InstalledModel, any SpeechStream
    ) {
        let model = try engine.model(for: locale)
        let stream: (any SpeechStream)?
        do throws(SpeechError) { stream = try model.hearing() } catch { throw .failed(error.message) }
        guard let stream else { throw .modelUnavailable("\(model.installed.name) does not follow a recording as it is captured.") }
        return (model.installed, stream)
    }

    /// Releases the model after `idleRelease` unless it is used again before, or a recording is being followed then.
    private func scheduleRelease(_ state: inout Work) {
        state.uses += 1
        let use = state.uses
        queue.asyncAfter(deadline: .now() + idleRelease / .seconds(1)) { [self] in
            work.withLock { work in
                guard work.uses == use, work.live == nil else { return }
                work.engine.release()
            }
        }
    }
}

/// Set once by a task's cancellation handler, read by the transcription queue between blocks.
final class CancellationFlag: Sendable {
    private let flag = Atomic(false)
    func set() { flag.store(true, ordering: .relaxed) }
    func isSet() -> Bool { flag.load(ordering: .relaxed) }
}
