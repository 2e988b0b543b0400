import Recording
import Writing

/// How recognised words are written in a locale: its spoken punctuation and the user's replacements, as the
/// replacements file says at the time.
public struct TextWriting: Sendable {
    public let replacements: ReplacementsFile

    public init(replacements: ReplacementsFile) { self.replacements = replacements }

    public func writing(in locale: String) -> DictatedText {
        let path = replacements.path
        let current = replacements.current(
            problems: { Log.warning("\(path): \($0); the line is skipped") },
            refused: { Log.warning("\(path) is not read: \($0); no replacements are made until it is fixed") })
        return DictatedText(locale: locale, replacements: current)
    }
}
