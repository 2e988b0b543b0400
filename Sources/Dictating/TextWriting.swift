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
        let current = replacements.logged(refusedMeans: "no replacements are made")
        return DictatedText(locale: locale, replacements: current, vocabulary: VocabularyCorrection(vocabulary))
    }

    /// The vocabulary as its file says now, a bad line told in the log and skipped.
    public var vocabulary: Vocabulary { vocabularyFile.logged(refusedMeans: "no vocabulary is used") }

    /// Makes `vocabulary` the file's, at once or not at all; the next text written uses it.
    /// - Throws: Why the file could not be written.
    public func keep(_ vocabulary: Vocabulary) throws(FileError) {
        try PrivateFiles.replace(vocabularyFile.path, with: Array(vocabulary.fileText.utf8))
    }
}

extension WatchedFile {
    /// The content as the file says now, each bad line told in the journal and skipped; a file refused whole is told
    /// with `refusedMeans`, what its absence costs until it is fixed.
    fileprivate func logged(refusedMeans: String) -> Content {
        let path = self.path
        return current(
            problems: { Log.warning("\(path): \($0); the line is skipped") },
            refused: { Log.warning("\(path) is not read: \($0); \(refusedMeans) until it is fixed") })
    }
}
