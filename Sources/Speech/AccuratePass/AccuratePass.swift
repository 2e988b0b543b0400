import Models
import Recording
import Synchronization

/// The accurate pass over one recording: each utterance Vosk ends is decoded again by a model that decodes utterances
/// (Whisper's, in its helper), in spoken order, while the next one is spoken, the previous utterance's text before it;
/// that text then stands for the utterance. The utterance under way is decoded ahead at each pause, so that at Send
/// only the utterances still queued and what was said after the last pause are left to wait for.
public final class AccuratePass: Sendable {
    let model: any UtteranceDecoding
    /// Whether the utterance under way is decoded ahead at its pauses: the caller meters pauses only then.
    let decodesAhead: Bool
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
        /// The utterance under way, decoded ahead at its pauses.
        var ahead: AheadChain?
        /// Where the last utterance queued ends, in seconds of the recording.
        var queuedEnd = 0.0

        /// Whisper's text of utterance `index`, else Vosk's; empty before the first.
        func text(of index: Int) -> String {
            utterances.indices.contains(index) ? (utterances[index].whisper ?? utterances[index].vosk).text : ""
        }
    }

    /// How long an utterance with none queued behind it waits for Send before the full window decodes it: the user
    /// who stops speaking and sends within it gets the fitted window's text, in a third of the time.
    static let sendGrace: Duration = .seconds(1)

    /// The quiet, in seconds, at which the utterance under way is decoded ahead: shorter than Vosk's utterance end.
    static let aheadPause = 0.3
    /// Seconds by which Vosk's times and the level meter's may differ: a piece ending within them of an utterance's
    /// end covers it.
    static let aheadSlack = 0.3

    struct Utterance {
        let vosk: Transcript
        var whisper: Transcript?
        /// Its span in the recording, in seconds, as Vosk (or the voice detector) gave it.
        var start = 0.0
        var end = 0.0
        /// Its pieces decoded ahead, when it was under way at a pause.
        var ahead: AheadChain?
    }

    /// - Parameter decodesAhead: whether the utterance under way is decoded ahead at its pauses.
    init(model: any UtteranceDecoding, decodesAhead: Bool = true, revised: @escaping @Sendable (Int, Transcript) -> Void) {
        self.model = model
        self.decodesAhead = decodesAhead
        self.revised = revised
    }

    /// Queues an utterance whose audio is `start`…`end` seconds of the recording, as `audio` keeps it.
    func add(_ utterance: Transcript, from start: Double, to end: Double, of audio: UtteranceAudio) {
        let (taken, offset) = audio.take(from: start, to: end)
        let waiting = state.withLock { state in
            let index = state.utterances.count
            var queued = Utterance(vosk: utterance, start: start, end: end)
            if let chain = state.ahead, chain.start < end {
                queued.ahead = chain
                state.ahead = nil
            }
            state.utterances.append(queued)
            state.queuedEnd = max(state.queuedEnd, end)
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

    /// The speaker paused after speech from `speech.start` to `speech.end` (seconds of the recording): the audio up to
    /// the pause is queued as the next piece of the utterance under way, or added to the one not yet started.
    func paused(_ speech: (start: Double, end: Double), of audio: UtteranceAudio) {
        state.withLock { state in
            guard speech.end > state.queuedEnd + Self.aheadSlack else { return }
            var chain = state.ahead ?? AheadChain(start: max(state.queuedEnd, speech.start - Self.aheadSlack))
            let piece = audio.copy(from: chain.audioEnd, to: speech.end + UtteranceAudio.padding)
            // Speech that never pauses long enough is left to the utterance's own decoding.
            guard piece.end > chain.audioEnd, piece.end - chain.start <= Double(UtteranceAudio.maximumSeconds) else { return }
            chain.audioEnd = piece.end
            if chain.pieces.last?.audio.add(piece.audio, speechEnd: speech.end) != true {
                let pieceAudio = PieceAudio(piece.audio, start: piece.start, speechEnd: speech.end)
                let earlier = chain.pieces.last?.decoding
                let before = state.decodings.last
                let previous = state.utterances.count - 1
                chain.pieces.append(
                    AheadPiece(
                        audio: pieceAudio,
                        decoding: Task {
                            await before?.value
                            let context: String
                            if let earlier {
                                guard let written = await earlier.value else { return nil }
                                context = written.context
                            } else {
                                context = self.state.withLock { $0.text(of: previous) }
                            }
                            return await self.decodeAhead(pieceAudio.take(), after: context)
                        }))
            }
            state.ahead = chain
        }
    }

    /// A piece of the utterance under way, decoded in the fitted window as Send would decode it; nil when it was left
    /// or failed.
    private func decodeAhead(_ piece: PieceAudio.Taken, after context: String) async -> AheadText? {
        guard !piece.samples.isEmpty, !Task.isCancelled else { return nil }
        let started = ContinuousClock.now
        do throws(SpeechError) {
            let text = try await model.transcribe(utterance: piece.samples, after: context, awaited: true).shifted(by: piece.start)
            Log.info(
                "Decoded ahead \(Double(piece.samples.count / 2) / 16_000) s of the utterance under way in "
                    + "\((ContinuousClock.now - started) / .seconds(1)) s")
            return AheadText(
                text: text, speechEnd: piece.speechEnd,
                context: [context, text.text].filter { !$0.isEmpty }.joined(separator: " "))
        } catch {
            return nil
        }
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
        let (prompt, utterance) = state.withLock { state in (state.text(of: index - 1), state.utterances[index]) }
        if !fitted { utterance.ahead?.pieces.forEach { $0.audio.leave() } }
        do throws(SpeechError) {
            let started = ContinuousClock.now
            let ahead = fitted ? await writtenAhead(utterance) : nil
            let text: Transcript
            if let ahead { text = ahead } else {
                text = try await model.transcribe(utterance: audio, after: prompt, awaited: fitted).shifted(by: offset)
            }
            let seconds = Double(audio.count / 2) / 16_000
            Log.info(
                "Utterance \(index + 1) (\(seconds) s of audio\(fitted ? ", after Send" : "")) written again in "
                    + "\((ContinuousClock.now - started) / .seconds(1)) s"
                    + (ahead == nil ? "" : ", decoded ahead at its pauses"))
            let isEnded = state.withLock { state in
                state.utterances[index].whisper = text
                return state.isEnded
            }
            if !isEnded { revised(index, text) }
        } catch {
            if error != .cancelled { Log.warning("The accurate pass left utterance \(index + 1) to Vosk: \(error.message)") }
        }
    }

    /// `utterance` as the pieces decoded ahead wrote it; nil when they do not cover it from its start to its end, and it
    /// is decoded whole. Where Vosk's words went on past the last piece (its end cut a sentence the level meter heard
    /// go on), the part after the piece decoded alone wrote words nobody said: "And do it." over the cut's last 0.3 s.
    private func writtenAhead(_ utterance: Utterance) async -> Transcript? {
        guard let chain = utterance.ahead, chain.start <= utterance.start + Self.aheadSlack else { return nil }
        var text = Transcript(model: model.installed.name)
        var coveredEnd: Double?
        for piece in chain.pieces {
            // A piece past the utterance's end holds the next one's words.
            guard let written = await piece.decoding.value, written.speechEnd <= utterance.end + Self.aheadSlack else { break }
            text.append(written.text)
            text.language = text.language ?? written.text.language
            coveredEnd = written.speechEnd
        }
        guard let coveredEnd, utterance.end <= coveredEnd + Self.aheadSlack else { return nil }
        return text
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
        state.withLock { state in
            state.isEnded = true
            state.ahead?.pieces.forEach { $0.audio.leave() }
        }
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
        let (decodings, pieces, waiting) = state.withLock { state in
            defer { state.awaitingSend = nil }
            let pieces = (state.utterances.compactMap(\.ahead) + [state.ahead].compactMap { $0 }).flatMap(\.pieces)
            return (state.decodings, pieces, state.awaitingSend)
        }
        decodings.forEach { $0.cancel() }
        pieces.forEach { $0.decoding.cancel() }
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
