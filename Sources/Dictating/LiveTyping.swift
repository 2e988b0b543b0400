import Delivering
import Recording
import Speech
import Synchronization

/// `Live`: with `Output` type, each utterance is typed as soon as Vosk ends it, one after the other in the spoken
/// order, written as the memo's text will be (what each word adds to it). A delivery that fails stops the typing
/// of that recording: `notDelivered` says so once, and the rest goes to the clipboard at Send (`DeliveryReporter`). With
/// the accurate pass, each utterance is typed once, in Whisper's text, when it is ready.
public final class LiveTyping: LiveTextListener {
    /// What was typed of one recording.
    struct Progress: Sendable {
        var words: [String] = []
        /// The written text that arrived, in order: a prefix of the memo's written text.
        var typed = ""
        var failed = false
        var method: DeliveryMethod?
        /// Whisper writes each utterance again: only its text is typed.
        var typesRevised = false
        /// A banner said its line breaks were typed as spaces: once a recording is enough.
        var toldNewLines = false
    }

    private struct Typing {
        var recordings: [RecordingID: Progress] = [:]
        /// The last delivery asked for: each waits for the one before, so that utterances arrive in order.
        var last: Task<Void, Never>?
        var localeOf: (@Sendable (RecordingID) -> String)?
    }

    private let state = Mutex(Typing())
    private let choice: OutputChoice
    private let delivery: any TextDelivering
    private let writing: TextWriting
    private let listener: any DictationListener

    public init(choice: OutputChoice, delivery: any TextDelivering, writing: TextWriting, listener: any DictationListener) {
        self.choice = choice
        self.delivery = delivery
        self.writing = writing
        self.listener = listener
    }

    /// Where a recording's locale is known; nothing is typed before.
    public func start(localeOf: @escaping @Sendable (RecordingID) -> String) { state.withLock { $0.localeOf = localeOf } }

    /// Typing needs no guesses.
    public var isFollowed: Bool { false }

    public func heard(_ speech: HeardSpeech, of recording: RecordingID) {
        guard choice.typesLive(recording) else { return }
        let utterance: Transcript
        switch speech {
        case .accuratePass:
            state.withLock { $0.recordings[recording, default: Progress()].typesRevised = true }
            return
        case .final(let heard):
            guard state.withLock({ $0.recordings[recording]?.typesRevised }) != true else { return }
            utterance = heard
        case .revised(_, let written): utterance = written
        case .partial: return
        }
        let words = utterance.text.split(separator: " ").map(String.init)
        guard !words.isEmpty else { return }
        let typing = choice.typing
        state.withLock { state in
            guard let localeOf = state.localeOf else { return }
            var progress = state.recordings[recording] ?? Progress()
            guard !progress.failed else { return }
            let before = progress.words.count
            progress.words += words
            let chunk = writing.writing(in: localeOf(recording)).writeEach(progress.words, typed: before)[before...].joined()
            state.recordings[recording] = progress
            state.recordings.keepNewest(OutputChoice.mostSingleChoices)
            let previous = state.last
            state.last = Task {
                await previous?.value
                await self.type(chunk, of: recording, typing: typing)
            }
        }
    }

    public func ended(_ recording: RecordingID) {}

    /// What was typed of `recording` once every delivery asked for has ended; nil when nothing was typed live.
    /// The recording is forgotten.
    func finish(_ recording: RecordingID) async -> Progress? {
        await state.withLock { $0.last }?.value
        return state.withLock { $0.recordings.removeValue(forKey: recording) }
    }

    private func type(_ chunk: String, of recording: RecordingID, typing: TypingChoice) async {
        guard state.withLock({ $0.recordings[recording]?.failed == false }) else { return }
        do throws(DeliveryError) {
            let delivered = try await delivery.deliver(chunk, to: .type, typing: typing)
            let tellsNewLines = state.withLock { state in
                state.recordings[recording]?.typed += chunk
                state.recordings[recording]?.method = delivered?.method
                guard let delivered, delivered.newLines != .kept, state.recordings[recording]?.toldNewLines == false else { return false }
                state.recordings[recording]?.toldNewLines = true
                return true
            }
            if tellsNewLines, let delivered { await listener.dictationChanged(.newLinesAsSpaces(recording, delivered.newLines)) }
        } catch {
            state.withLock { $0.recordings[recording]?.failed = true }
            Log.warning("Recording \(recording) is no longer typed as it is spoken: \(error.message)")
            await listener.dictationChanged(.notDelivered(recording, reason: error.message))
        }
    }
}
