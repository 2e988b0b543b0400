import Glibc

/// Feeds a recognizer in blocks of 4000 samples (0.25 s, the blocks Vosk's own examples read), whatever the
/// size of the pieces the audio arrives in.
///
/// libvosk looks for the end of an utterance once per block it is given, so the blocks decide where utterances
/// end and, with that, the words. Feeding a recording's samples as they are captured (20 ms at a time) and
/// feeding its file both go through here, so that both give the same transcript.
public final class BlockRecognition {
    /// 0.25 s: the 4000 frames Vosk's examples read at a time.
    public static let blockSamples = 4000
    /// What a new process's `rand()` starts from.
    public static let ditherSeed: UInt32 = 1

    private let recognizer: Recognizer
    /// Samples waiting for their block to fill.
    private var pending: [Int16] = []
    /// Hears the text as it is decoded, when somebody follows it live.
    private var hearing: LiveHearing?
    /// The last guess heard, so that an unchanged one is not told again.
    private var lastPartial = ""

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
    /// under way, once a block, when they changed.
    public func follow(_ hearing: LiveHearing) {
        self.hearing = hearing
        recognizer.utteranceEnded = { [unowned self] utterance in
            lastPartial = ""
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
        let partial = recognizer.partial()
        guard partial != lastPartial else { return }
        lastPartial = partial
        if !partial.isEmpty { hearing.heard(.partial(partial)) }
    }
}

@available(*, unavailable)
extension BlockRecognition: Sendable {}
