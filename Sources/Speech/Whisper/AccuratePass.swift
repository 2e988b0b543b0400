import Recording
import Synchronization

/// The accurate pass over one recording: each utterance Vosk ends is decoded again by a Whisper model in the helper,
/// in spoken order, while the next one is spoken, the previous utterance's text as its prompt; Whisper's text then
/// stands for that utterance. At Send only the utterances still queued are left to wait for.
public final class AccuratePass: Sendable {
    let model: InstalledModel
    private let language: String
    private let helper: WhisperHelper
    /// Told each utterance Whisper wrote: its index in the recording and its text, timed in the recording.
    private let revised: @Sendable (Int, Transcript) -> Void
    private let state = Mutex(State())

    private struct State {
        var utterances: [Utterance] = []
        /// The decodings queued, each awaiting the one before it.
        var decodings: [Task<Void, Never>] = []
    }

    private struct Utterance {
        let vosk: Transcript
        var whisper: Transcript?
    }

    init(model: InstalledModel, language: String, helper: WhisperHelper, revised: @escaping @Sendable (Int, Transcript) -> Void) {
        self.model = model
        self.language = language
        self.helper = helper
        self.revised = revised
    }

    /// Queues an utterance: Vosk's transcript of it, and its audio (16-bit little-endian), which starts `offset`
    /// seconds into the recording.
    func add(_ utterance: Transcript, audio: [UInt8], offset: Double) {
        state.withLock { state in
            let index = state.utterances.count
            state.utterances.append(Utterance(vosk: utterance))
            let previous = state.decodings.last
            state.decodings.append(
                Task {
                    await previous?.value
                    await self.decode(index, audio: audio, offset: offset)
                })
        }
    }

    private func decode(_ index: Int, audio: [UInt8], offset: Double) async {
        guard !Task.isCancelled else { return }
        let prompt = state.withLock { state in
            index > 0 ? (state.utterances[index - 1].whisper ?? state.utterances[index - 1].vosk).text : ""
        }
        do throws(SpeechError) {
            let started = ContinuousClock.now
            let segments = try await helper.transcribe(audio: audio, model: model.path, language: language, prompt: prompt)
            let seconds = Double(audio.count / 2) / 16_000
            Log.info("Utterance \(index + 1) (\(seconds) s of audio) written again in \((ContinuousClock.now - started) / .seconds(1)) s")
            let shifted = segments.map { WhisperModel.Segment(start: $0.start + offset, end: $0.end + offset, text: $0.text) }
            let text = Transcript(segments: shifted, model: model.name)
            state.withLock { $0.utterances[index].whisper = text }
            revised(index, text)
        } catch {
            if error != .cancelled { Log.warning("The accurate pass left utterance \(index + 1) to Vosk: \(error.message)") }
        }
    }

    /// The recording's text once every queued utterance is decoded, or `limit` has passed: Whisper's text where it
    /// wrote one, Vosk's elsewhere. Decodings still queued then are stopped.
    /// - Parameter vosk: Vosk's transcript of the whole recording, which stands when Whisper wrote nothing.
    func finish(within limit: Duration, vosk: Transcript) async -> Transcript {
        let decodings = state.withLock { $0.decodings }
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await decodings.last?.value }
            group.addTask { try? await Task.sleep(for: limit) }
            await group.next()
            // Awaiting a task's value does not end with the waiter's cancellation: the decodings themselves stop.
            cancel()
            group.cancelAll()
        }
        return state.withLock { state in
            let written = state.utterances.filter { $0.whisper != nil }.count
            Log.info("The accurate pass wrote \(written) of \(state.utterances.count) utterances with \(model.name)")
            guard written > 0 else { return vosk }
            var transcript = Transcript(model: model.name)
            for utterance in state.utterances { transcript.append(utterance.whisper ?? utterance.vosk) }
            return transcript
        }
    }

    /// The words of the utterances queued so far, by Vosk's count.
    var queuedWordCount: Int {
        state.withLock { $0.utterances.reduce(0) { $0 + $1.vosk.words.count } }
    }

    /// Stops the decodings: the recording was discarded, or is done.
    func cancel() {
        state.withLock { $0.decodings }.forEach { $0.cancel() }
    }
}
