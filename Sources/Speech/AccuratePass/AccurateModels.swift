import Dispatch
import Models
import Recording

/// Which recordings get the accurate pass: those in a locale the user chose a model for (`UseModel` of a Whisper or
/// sherpa-onnx model), when it is on disk and its engine — one that decodes utterances — is there.
public struct AccurateModels: Sendable {
    /// The accurate pass's model chosen per locale.
    private let choices: ModelChoices
    /// The engines that load the chosen models, tried in order.
    private let engines: [any SpeechEngine & Sendable]
    /// How long Send waits for the utterances still queued before Vosk's text stands in for them until Whisper's
    /// comes: three times what the last utterance takes with tiny.en on 2 cores.
    let finishLimit: Duration
    /// Silero's detector, which ends utterances where the pass's model follows a recording alone; the level meter
    /// does without it.
    private let voiceDetection: VoiceDetection?
    /// The other languages the user speaks (BCP 47 tags), as of each recording's start.
    private let alsoSpoken: @Sendable () -> [String]

    /// - Parameter engines: load the chosen models: `WhisperEngine`, `SherpaEngine`; with none, the pass never runs.
    public init?(
        choices: ModelChoices, engines: [any SpeechEngine & Sendable], voiceDetection: VoiceDetection? = nil,
        alsoSpoken: @escaping @Sendable () -> [String] = { [] }, finishLimit: Duration = .seconds(3)
    ) {
        guard !engines.isEmpty else { return nil }
        self.choices = choices
        self.engines = engines
        self.voiceDetection = voiceDetection
        self.alsoSpoken = alsoSpoken
        self.finishLimit = finishLimit
    }

    /// Where the utterances of a recording the pass follows alone end.
    func utteranceEnding() -> any UtteranceEnding {
        voiceDetection.map { VoiceCutter($0) } ?? UtteranceCutter()
    }

    /// Where Silero hears speech in a recording; nil without Silero.
    func speechStretches() -> SpeechStretches? { voiceDetection.map(SpeechStretches.init) }

    /// The pass for a recording in `locale`, or nil when none is chosen or its model is missing.
    /// - Parameter alone: No Vosk model follows the recording: any model of the engine for the locale on disk does,
    ///   the chosen one first.
    func pass(for locale: String, alone: Bool = false, revised: @escaping @Sendable (Int, Transcript) -> Void) -> AccuratePass? {
        guard let model = loaded(for: locale, alone: alone)?.utterances else { return nil }
        let languages = alsoSpoken()
        // Weighed among languages, each piece would be told its language alone, which is not measured yet: such an
        // utterance is told whole, as before.
        return AccuratePass(model: model.speaking(also: languages), decodesAhead: languages.isEmpty, revised: revised)
    }

    /// A recording's whole file decoded by the locale's accurate model, the chosen one first: a memo recovered at
    /// start in a locale no Vosk model serves. Nil when no such model of the locale is on disk.
    func transcript(ofFile file: String, in locale: String) async throws(SpeechError) -> Transcript? {
        let cancelled = CancellationFlag()
        // Off the tasks' threads: the engine's file decoding waits for it.
        let outcome = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Result<Transcript?, SpeechError>, Never>) in
                DispatchQueue.global().async {
                    continuation.resume(
                        returning: Result { () throws(SpeechError) in
                            guard let model = loaded(for: locale, alone: true) else { return nil }
                            Log.info("Transcribing \(file) in \(locale) with \(model.installed.name): no Vosk model serves it")
                            return try model.transcribe(wavFile: file, unless: cancelled.isSet)
                        })
                }
            }
        } onCancel: {
            cancelled.set()
        }
        return try outcome.get()
    }

    /// The locale's chosen model, from the first engine that has it; with `alone`, any of its models on disk when none
    /// is chosen.
    private func loaded(for locale: String, alone: Bool) -> (any LoadedSpeechModel)? {
        let chosen = choices[locale]
        guard chosen != nil || alone else { return nil }
        var failures: [String] = []
        for engine in engines {
            do throws(RecordingError) { return try engine.model(for: locale, named: chosen) } catch { failures.append("\(error)") }
        }
        if let chosen {
            Log.warning(
                "The accurate pass for \(locale) needs \(chosen), which cannot be used (\(failures.joined(separator: "; "))): Vosk's text stands")
        }
        return nil
    }
}
