import Glibc

/// Feeds a recognizer in blocks of 800 samples (50 ms), whatever the size of the pieces the audio arrives in.
///
/// libvosk looks for the end of an utterance once per block it is given, so the blocks decide where utterances
/// end and, with that, the words. Feeding a recording's samples as they are captured (20 ms at a time) and
/// feeding its file both go through here, so that both give the same transcript.
public final class BlockRecognition {
    /// 50 ms: a guess can change only after a block, so smaller blocks show a word sooner (0.1 s sooner at the
    /// median than Vosk's examples' 0.25 s, docs/BENCHMARKS.md), at about the same decoding cost.
    public static let blockSamples = 800
    /// Guesses told at most this often: the final after them says it all anyway.
    public static let partialInterval: Duration = .milliseconds(100)
    /// What a new process's `rand()` starts from.
    public static let ditherSeed: UInt32 = 1

    private let recognizer: Recognizer
    /// Samples waiting for their block to fill.
    private var pending: [Int16] = []
    /// Hears the text as it is decoded, when somebody follows it live.
    private var hearing: LiveHearing?
    /// The last guess told at the utterance under way, so that an unchanged one is not told again.
    private var lastPartial = ""
    /// When a guess was last told.
    private var lastPartialTold: ContinuousClock.Instant?

    /// Starts a recognition with a recognizer of its own on `model`.
    ///
    /// Kaldi dithers each frame with noise drawn from libc's process-wide `rand()`, so a transcript depends on
    /// every draw before it. Seeding at the start of each recognition makes the same audio give the same text:
    /// when streamed or decoded from its file, today or when transcribed again. (Two recognitions decoding at
    /// once in one process still share the draws; Notula decodes one at a time.)
    /// - Throws: `.recognitionFailed` when libvosk cannot create the recognizer.
    public init(model: SpeechModel) throws(SpeechError) {
        srand(Self.ditherSeed)
        recognizer = try Recognizer(model: model)
        pending.reserveCapacity(Self.blockSamples)
    }

    /// From now on, tells `hearing` each utterance as it ends and, while it asks for them, the guesses at the one
    /// under way when they changed, at most once every `partialInterval`.
    public func follow(_ hearing: LiveHearing) {
        self.hearing = hearing
        recognizer.utteranceEnded = { [unowned self] utterance in
            let guessed = !lastPartial.isEmpty
            lastPartial = ""
            // Vosk also ends stretches of silence, as empty utterances: told only to take back a guess.
            guard !utterance.text.isEmpty || guessed else { return }
            hearing.heard(.final(utterance))
        }
    }

    /// Takes the next samples, decoding every block they fill.
    /// - Throws: `.recognitionFailed` when libvosk fails while decoding.
    public func append(_ samples: UnsafeBufferPointer<Int16>) throws(SpeechError) {
        var rest = samples[...]
        while !rest.isEmpty {
            let taken = rest.prefix(Self.blockSamples - pending.count)
            pending.append(contentsOf: taken)
            rest = rest.dropFirst(taken.count)
            if pending.count == Self.blockSamples { try decodePending() }
        }
    }

    /// Decodes the last, partial block and returns the transcript of everything appended; the recognition
    /// then starts over.
    /// - Throws: `.recognitionFailed` when libvosk fails while decoding.
    public func finish() throws(SpeechError) -> Transcript {
        try decodePending()
        return recognizer.finish()
    }

    private func decodePending() throws(SpeechError) {
        guard !pending.isEmpty else { return }
        try pending.withUnsafeBufferPointer { block in
            Result { () throws(SpeechError) in try recognizer.accept(block) }
        }.get()
        pending.removeAll(keepingCapacity: true)
        guard let hearing, hearing.wantsPartials() else { return }
        // A change held back by the interval is told at the first block after it, not lost until the next change.
        let now = ContinuousClock.now
        if let lastPartialTold, now - lastPartialTold < Self.partialInterval { return }
        let partial = recognizer.partial()
        guard !partial.isEmpty, partial != lastPartial else { return }
        lastPartial = partial
        lastPartialTold = now
        hearing.heard(.partial(partial))
    }
}

@available(*, unavailable)
extension BlockRecognition: Sendable {}
