import Recording

/// The models the user chose per locale: the one recordings use (`live`, the `models` setting) and the accurate
/// pass's Whisper model (`accurate`, `accurateModels`), each kept in the settings once changed.
public struct ModelSelection: Sendable {
    /// Shared with the speech engine, which loads the chosen model.
    public let live: ModelChoices
    /// Shared with the transcriber's accurate pass.
    public let accurate: ModelChoices

    public init(live: ModelChoices = ModelChoices([:]), accurate: ModelChoices = ModelChoices([:])) {
        self.live = live
        self.accurate = accurate
    }

    /// Makes `name` the model recordings in `locale` use, or, for a Whisper model, the one that writes them again
    /// (none when nil), and keeps it.
    /// - Returns: Whether the choice changed.
    func choose(_ name: String?, for locale: String, whisper: Bool) -> Bool {
        let choices = whisper ? accurate : live
        guard choices[locale] != name else { return false }
        choices[locale] = name
        choices.keep()
        if whisper {
            Log.info("Recordings in \(locale) are written again \(name.map { "by \($0)" } ?? "by no Whisper model") from now on")
        } else {
            Log.info("Recordings in \(locale) use the model \(name ?? "best on disk") from now on")
        }
        return true
    }

    /// Forgets `model` wherever it was chosen: it was deleted, and its locales go back to the best there is.
    /// - Returns: Whether a choice changed.
    func forget(_ model: InstalledModel) -> Bool {
        var changed = false
        if live[model.locale] == model.name {
            live[model.locale] = nil
            live.keep()
            changed = true
        }
        let chosen = accurate.all
        if chosen.values.contains(model.name) {
            for (locale, name) in chosen where name == model.name { accurate[locale] = nil }
            accurate.keep()
            changed = true
        }
        return changed
    }

    /// The model recordings use in each of `locales`: the one chosen, else the best of `installed`.
    func inUse(in locales: [String], among installed: [InstalledModel]) -> [String: String] {
        let chosen = live.all
        return locales.reduce(into: [:]) { inUse, locale in
            inUse[locale] = InstalledModels.inUse(for: locale, among: installed, chosen: chosen[locale])?.name
        }
    }
}
