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
        let ofLocale = InstalledModels.all(places: places).filter { $0.locale == locale && !$0.isLive }
        guard let name = choices[locale] ?? (alone ? ofLocale.first?.name : nil) else { return nil }
        guard let model = ofLocale.first(where: { $0.name == name }),
            let language = WhisperLanguages.code(forTag: locale)
        else {
            Log.warning("The accurate pass for \(locale) needs \(name), which is not on disk: Vosk's text stands")
            return nil
        }
        return AccuratePass(model: model, language: language, helper: helper, revised: revised)
    }
}
