/// Turns a stream of 16 kHz mono samples into a transcript, utterance by utterance.
///
/// Not thread-safe, as libvosk's recognizer is not: one owner feeds it.
///
/// The same audio can give slightly different transcripts from one recognizer to the next: Kaldi dithers
/// the samples with noise seeded from libc's process-wide `rand()`, as the model's `mfcc.conf` leaves
/// `--dither` at its default. Vosk's Python package behaves the same; the tests seed `rand()` to compare.
public final class Recognizer {
    /// The rate every recognizer expects: what Notula records in.
    public static let sampleRate = 16_000

    private let model: SpeechModel
    private let handle: OpaquePointer
    /// The utterances that ended so far.
    private var transcript = Transcript()
    /// Hears each utterance as it ends, while the audio is decoded and at its end.
    var utteranceEnded: ((Transcript) -> Void)?

    private var functions: VoskFunctions { model.library.functions }

    /// A recognizer for 16 kHz audio with word timings on, using (and keeping alive) `model`.
    /// - Throws: `.recognitionFailed` when libvosk cannot create the recognizer.
    /// The corresponding C functions are `vosk_recognizer_new` and `vosk_recognizer_set_words`.
    public init(model: SpeechModel) throws(SpeechError) {
        guard let handle = model.library.functions.newRecognizer(model: model.handle, sampleRate: Float(Self.sampleRate))
        else {
            throw .recognitionFailed("libvosk could not create a recognizer for the model in \(model.path).")
        }
        self.model = model
        self.handle = handle
    }

    /// The corresponding C function is `vosk_recognizer_free`.
    deinit {
        functions.freeRecognizer(handle)
    }

    /// Decodes the next samples; an utterance that ends in them is added to the transcript at once.
    /// - Parameter samples: 16 kHz mono signed 16-bit samples, any number.
    /// - Throws: `.recognitionFailed` when libvosk fails while decoding.
    /// The corresponding C functions are `vosk_recognizer_accept_waveform_s` and `vosk_recognizer_result`.
    public func accept(_ samples: UnsafeBufferPointer<Int16>) throws(SpeechError) {
        guard let base = samples.baseAddress else { return }
        var offset = 0
        while offset < samples.count {
            let count = min(samples.count - offset, Int(Int32.max))
            switch functions.acceptWaveform(handle, base + offset, count: Int32(count)) {
            case 1:
                // The result is only valid until the next call on the recognizer.
                let utterance = try RecognizerResult.transcript(from: functions.result(handle))
                transcript.append(utterance)
                utteranceEnded?(utterance)
            case 0:
                break
            default:
                throw .recognitionFailed("libvosk failed while decoding the audio.")
            }
            offset += count
        }
    }

    /// Decodes the next samples; see `accept(_:)` for an unsafe buffer.
    public func accept(_ samples: [Int16]) throws(SpeechError) {
        try samples.withUnsafeBufferPointer { buffer in
            Result { () throws(SpeechError) in try accept(buffer) }
        }.get()
    }

    /// Ends the audio: decodes what is left and returns the whole transcript.
    ///
    /// The recognizer then starts over with an empty transcript, ready for another recording.
    /// A final result libvosk garbles (never seen) adds nothing rather than losing the utterances before it.
    /// The corresponding C function is `vosk_recognizer_final_result`.
    public func finish() -> Transcript {
        var whole = transcript
        transcript = Transcript()
        if let last = try? RecognizerResult.transcript(from: functions.finalResult(handle)) {
            whole.append(last)
            utteranceEnded?(last)
        }
        return whole
    }

    /// The recognizer's current guess at the utterance under way; empty between utterances.
    /// The corresponding C function is `vosk_recognizer_partial_result`.
    func partial() -> String {
        PartialResult.text(from: functions.partialResult(handle))
    }
}

@available(*, unavailable)
extension Recognizer: Sendable {}
