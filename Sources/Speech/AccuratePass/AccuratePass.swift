import Models
import Recording
import Synchronization

/// The accurate pass over one recording: each utterance Vosk ends is decoded again by a model that decodes utterances
/// (Whisper's, in its helper), in spoken order, while the next one is spoken, the previous utterance's text before it;
/// that text then stands for the utterance. At Send only the utterances still queued are left to wait for, awaited.
public final class AccuratePass: Sendable {
    let model: any UtteranceDecoding
    /// Told each utterance Whisper wrote: its index in the recording and its text, timed in the recording.
    private let revised: @Sendable (Int, Transcript) -> Void
    private let state = Mutex(State())

    private struct State {
        var utterances: [Utterance] = []
        /// The decodings queued, each awaiting the one before it.
        var decodings: [Task<Void, Never>] = []
        /// The recording's live text has ended: what is written after goes to its memo alone.
        var isEnded = false
        /// Send has come: what is decoded from now on is waited for, so it takes the fitted window.
        var isSent = false
        /// The last utterance queued, waiting to learn whether Send or another utterance comes first.
        var awaitingSend: FirstAnswer?
    }

    /// How long an utterance with none queued behind it waits for Send before the full window decodes it: the user
    /// who stops speaking and sends within it gets the fitted window's text, in a third of the time.
    static let sendGrace: Duration = .seconds(1)

    struct Utterance {
        let vosk: Transcript
        var whisper: Transcript?
    }

    init(model: any UtteranceDecoding, revised: @escaping @Sendable (Int, Transcript) -> Void) {
        self.model = model
        self.revised = revised
    }

    /// Queues an utterance whose audio is `start`…`end` seconds of the recording, as `audio` keeps it.
    func add(_ utterance: Transcript, from start: Double, to end: Double, of audio: UtteranceAudio) {
        let (taken, offset) = audio.take(from: start, to: end)
        let waiting = state.withLock { state in
            let index = state.utterances.count
            state.utterances.append(Utterance(vosk: utterance))
            let previous = state.decodings.last
            state.decodings.append(
                Task {
                    await previous?.value
                    await self.decode(index, audio: taken, offset: offset)
                })
            defer { state.awaitingSend = nil }
            return state.awaitingSend
        }
        waiting?.give(false)
    }

    /// Send has come: the utterances not yet decoded are the ones the user waits for.
    func sent() {
        state.withLock { state in
            state.isSent = true
            defer { state.awaitingSend = nil }
            return state.awaitingSend
        }?.give(true)
    }

    /// Whether utterance `index` is to be decoded in the fitted window: Send came before its turn, or while it waited
    /// `sendGrace` with nothing queued behind it. The decoding of the full window, begun, is not cut short for Send.
    private func sendCame(before index: Int) async -> Bool {
        await withCheckedContinuation { continuation in
            let first = FirstAnswer(continuation)
            let settled: Bool? = state.withLock { state in
                if state.isSent { return true }
                if state.utterances.count > index + 1 { return false }
                state.awaitingSend = first
                return nil
            }
            if let settled { return first.give(settled) }
            Task {
                try? await Task.sleep(for: Self.sendGrace)
                first.give(false)
            }
        }
    }

    private func decode(_ index: Int, audio: [UInt8], offset: Double) async {
        let fitted = await sendCame(before: index)
        guard !Task.isCancelled else { return }
        let prompt = state.withLock { state in
            index > 0 ? (state.utterances[index - 1].whisper ?? state.utterances[index - 1].vosk).text : ""
        }
        do throws(SpeechError) {
            let started = ContinuousClock.now
            let text = try await model.transcribe(utterance: audio, after: prompt, awaited: fitted).shifted(by: offset)
            let seconds = Double(audio.count / 2) / 16_000
            Log.info(
                "Utterance \(index + 1) (\(seconds) s of audio\(fitted ? ", after Send" : "")) written again in "
                    + "\((ContinuousClock.now - started) / .seconds(1)) s")
            let isEnded = state.withLock { state in
                state.utterances[index].whisper = text
                return state.isEnded
            }
            if !isEnded { revised(index, text) }
        } catch {
            if error != .cancelled { Log.warning("The accurate pass left utterance \(index + 1) to Vosk: \(error.message)") }
        }
    }

    /// The recording's text once every queued utterance is decoded, or `limit` has passed: Whisper's text where it
    /// wrote one, Vosk's elsewhere. Past the limit the decodings go on, each utterance once, and the transcript's
    /// `revision` gives the text again when they are done: the queue never holds Send up for long.
    /// - Parameter vosk: Vosk's transcript of the whole recording, which stands when Whisper wrote nothing.
    func finish(within limit: Duration, vosk: Transcript) async -> Transcript {
        let last = state.withLock { $0.decodings.last }
        // Not a task group: it would wait for the decoding it no longer waits for.
        let finished = await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
            let first = FirstAnswer(continuation)
            Task {
                await last?.value
                first.give(true)
            }
            Task {
                try? await Task.sleep(for: limit)
                first.give(false)
            }
        }
        state.withLock { $0.isEnded = true }
        var transcript = composed(vosk: vosk)
        let pending = state.withLock { state in state.utterances.indices.filter { state.utterances[$0].whisper == nil } }
        if !finished, let last {
            Log.info("The accurate pass is \(pending.count) utterances behind at Send: the memo is written again once they are")
            transcript.revision = TranscriptRevision(
                pending: pending,
                completion: Task {
                    await withTaskCancellationHandler {
                        await last.value
                    } onCancel: {
                        self.cancel()
                    }
                    return self.composed(vosk: vosk)
                })
        }
        return transcript
    }

    /// Whisper's text where it wrote one, Vosk's elsewhere; Vosk's alone when Whisper wrote nothing.
    private func composed(vosk: Transcript) -> Transcript {
        state.withLock { state in
            Log.info(
                "The accurate pass wrote \(state.utterances.filter { $0.whisper != nil }.count) of \(state.utterances.count) "
                    + "utterances with \(model.installed.name)")
            return Self.composed(state.utterances, vosk: vosk, model: model.installed.name)
        }
    }

    /// `utterances` in Whisper's text where `model` wrote one, Vosk's elsewhere, and which model wrote each (in which
    /// language) where both did some or it chose among languages; `vosk`, the whole recording's, when Whisper wrote none.
    static func composed(_ utterances: [Utterance], vosk: Transcript, model: String) -> Transcript {
        guard utterances.contains(where: { $0.whisper != nil }) else { return vosk }
        var transcript = Transcript(model: model)
        for utterance in utterances {
            let text = utterance.whisper ?? utterance.vosk
            transcript.append(text)
            if let first = text.words.first, let last = text.words.last {
                transcript.utteranceModels.append(
                    UtteranceModel(
                        start: first.start, end: last.end, model: utterance.whisper == nil ? vosk.model : model,
                        language: utterance.whisper?.language))
            }
        }
        // Listed only where they differ: Model alone says who wrote a memo all of whose text is one model's, in one
        // language.
        let models = Set(transcript.utteranceModels.map(\.model))
        if models.count < 2 && !transcript.utteranceModels.contains(where: { $0.language != nil }) { transcript.utteranceModels = [] }
        return transcript
    }

    /// The words of the utterances queued so far, by Vosk's count.
    var queuedWordCount: Int {
        state.withLock { $0.utterances.reduce(0) { $0 + $1.vosk.words.count } }
    }

    /// Stops the decodings: the recording was discarded, or is done.
    func cancel() {
        let (decodings, waiting) = state.withLock { state in
            defer { state.awaitingSend = nil }
            return (state.decodings, state.awaitingSend)
        }
        decodings.forEach { $0.cancel() }
        waiting?.give(false)
    }
}

/// Resumes a continuation with the first answer given; later ones are dropped.
final class FirstAnswer: Sendable {
    private let continuation: Mutex<CheckedContinuation<Bool, Never>?>

    init(_ continuation: CheckedContinuation<Bool, Never>) {
        self.continuation = Mutex(continuation)
    }

    func give(_ answer: Bool) {
        continuation.withLock { waiting in
            let taken = waiting
            waiting = nil
            return taken
        }?.resume(returning: answer)
    }
}
