import Models
import Recording

/// Which recordings get the accurate pass: those in a locale the user chose a Whisper model for (`UseModel`), when
/// it is on disk and libwhisper is there.
public struct AccurateModels: Sendable {
    /// The Whisper model chosen per locale.
    private let choices: ModelChoices
    private let places: [String]
    private let helper: WhisperHelper
    /// How long Send waits for the utterances still queued before Vosk's text stands in for them until Whisper's
    /// comes: three times what the last utterance takes with tiny.en on 2 cores.
    let finishLimit: Duration

    public init(choices: ModelChoices, places: [String], helper: WhisperHelper, finishLimit: Duration = .seconds(3)) {
        self.choices = choices
        self.places = places
        self.helper = helper
        self.finishLimit = finishLimit
    }

    /// The pass for a recording in `locale`, or nil when none is chosen or its model is missing.
    /// - Parameter alone: No Vosk model follows the recording: any Whisper model of the locale on disk does, the
    ///   chosen one first.
    func pass(for locale: String, alone: Bool = false, revised: @escaping @Sendable (Int, Transcript) -> Void) -> AccuratePass? {
        guard let (model, language) = whisperModel(for: locale, alone: alone) else { return nil }
        return AccuratePass(model: model, language: language, helper: helper, revised: revised)
    }

    /// A recording's whole file decoded by the locale's Whisper model, the chosen one first: a memo recovered at
    /// start in a locale no Vosk model serves. Nil when no Whisper model of the locale is on disk.
    func transcript(ofFile file: String, in locale: String) async throws(SpeechError) -> Transcript? {
        guard let (model, language) = whisperModel(for: locale, alone: true) else { return nil }
        Log.info("Transcribing \(file) in \(locale) with \(model.name), in the Whisper helper: no Vosk model serves it")
        return Transcript(segments: try await helper.transcribe(file: file, model: model.path, language: language), model: model.name)
    }

    /// The locale's chosen Whisper model and Whisper's code of its language; with `alone`, any of its Whisper
    /// models on disk when none is chosen.
    private func whisperModel(for locale: String, alone: Bool) -> (InstalledModel, String)? {
        let ofLocale = InstalledModels.all(places: places).filter { $0.locale == locale && !$0.isLive }
        guard let name = choices[locale] ?? (alone ? ofLocale.first?.name : nil) else { return nil }
        guard let model = ofLocale.first(where: { $0.name == name }), let language = WhisperLanguages.code(forTag: locale) else {
            Log.warning("The accurate pass for \(locale) needs \(name), which is not on disk: Vosk's text stands")
            return nil
        }
        return (model, language)
    }
}
