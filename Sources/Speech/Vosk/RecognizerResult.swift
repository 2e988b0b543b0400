import FoundationEssentials
import Recording

/// The JSON libvosk gives for an utterance: `{"text": "...", "result": [{"conf", "start", "end", "word"}]}`.
///
/// `result` is absent when nothing was recognised.
struct RecognizerResult: Decodable {
    struct Entry: Decodable {
        let conf: Double
        let start: Double
        let end: Double
        let word: String
    }

    let text: String
    let result: [Entry]?

    /// The utterance in `json`.
    /// - Throws: `.recognitionFailed` when libvosk's JSON does not have this shape.
    static func transcript(from json: String) throws(SpeechError) -> Transcript {
        let decoded: RecognizerResult
        do {
            decoded = try JSONDecoder().decode(RecognizerResult.self, from: Data(json.utf8))
        } catch {
            throw .recognitionFailed("libvosk returned a result that cannot be read (\(error)): \(json.prefix(200))")
        }
        return Transcript(
            text: decoded.text,
            words: (decoded.result ?? []).map { Word(start: $0.start, end: $0.end, word: $0.word, confidence: $0.conf) }
        )
    }
}

/// The JSON libvosk gives for the utterance under way: `{"partial": "..."}`.
struct PartialResult: Decodable {
    let partial: String

    /// The guess in `json`; empty when libvosk's JSON does not have this shape (a guess is not worth a failure).
    static func text(from json: String) -> String {
        (try? JSONDecoder().decode(PartialResult.self, from: Data(json.utf8)))?.partial ?? ""
    }
}
