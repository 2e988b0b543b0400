import Recording
import Writing

/// How recognised words are written in a locale: the user's vocabulary, its spoken punctuation and the user's
/// replacements, as their files say at the time.
public struct TextWriting: Sendable {
    public let replacements: ReplacementsFile
    public let vocabularyFile: VocabularyFile

    public init(replacements: ReplacementsFile, vocabulary: VocabularyFile) {
        self.replacements = replacements
        vocabularyFile = vocabulary
    }

    public func writing(in locale: String) -> DictatedText {
        let path = replacements.path
        let current = replacements.current(
            problems: { Log.warning("\(path): \($0); the line is skipped") },
            refused: { Log.warning("\(path) is not read: \($0); no replacements are made until it is fixed") })
        return DictatedText(locale: locale, replacements: current, vocabulary: VocabularyCorrection(vocabulary))
    }

    /// The vocabulary as its file says now, a bad line told in the log and skipped.
    public var vocabulary: Vocabulary {
        let path = vocabularyFile.path
        return vocabularyFile.current(
            problems: { Log.warning("\(path): \($0); the line is skipped") },
            refused: { Log.warning("\(path) is not read: \($0); no vocabulary is used until it is fixed") })
    }

    /// Makes `vocabulary` the file's, at once or not at all; the next text written uses it.
    /// - Throws: Why the file could not be written.
    public func keep(_ vocabulary: Vocabulary) throws(FileError) {
        try PrivateFiles.replace(vocabularyFile.path, with: Array(vocabulary.fileText.utf8))
    }
}
