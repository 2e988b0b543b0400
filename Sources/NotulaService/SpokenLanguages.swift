import Models
import Speech

/// The other languages a user speaks besides the recorder's locale, as `AlsoSpoken` takes them: a few BCP 47 tags of
/// languages Whisper knows (`nl-NL`, `en`), each once.
struct SpokenLanguages: Sendable, Equatable {
    /// A user's few: every one more is weighed for each utterance.
    static let limit = WhisperEngine.mostOtherLanguages
    private(set) var tags: [String] = []

    init() {}

    /// - Throws: a message a person reads, naming what is wrong with `tags`.
    init(_ tags: [String]) throws(SpokenLanguagesError) {
        guard tags.count <= Self.limit else { throw SpokenLanguagesError("AlsoSpoken holds at most \(Self.limit) languages") }
        for tag in tags {
            guard tag.count <= 35, tag.allSatisfy({ $0.isASCII && ($0.isLetter || $0 == "-" || $0 == "_") }),
                WhisperLanguages.code(forTag: tag) != nil
            else {
                throw SpokenLanguagesError("AlsoSpoken takes BCP 47 tags of languages Whisper knows, as nl-NL or en: '\(tag.prefix(40))' is not one")
            }
            if !self.tags.contains(tag) { self.tags.append(tag) }
        }
    }
}

struct SpokenLanguagesError: Error {
    let message: String
    init(_ message: String) { self.message = message }
}
