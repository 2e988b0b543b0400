import FoundationEssentials
import Recording

/// The formats a memo's transcript exports to: plain text, two subtitle formats timed by the
/// words, and JSON with every word's timing for other tools.
public enum ExportFormat: String, Sendable, CaseIterable {
    case txt, srt, vtt, json

    /// The memo in this format: its written text; subtitles show each run of words as `writeEach` writes it (what
    /// each word adds to the written text).
    public func render(_ memo: Memo, writing writeEach: ([String]) -> [String]) -> String {
        switch self {
        case .txt: memo.written + "\n"
        case .srt:
            Self.cues(memo.words, writeEach).enumerated().map { "\($0 + 1)\n\($1.timing(separator: ","))\n\($1.text)\n" }
                .joined(separator: "\n")
        case .vtt:
            "WEBVTT\n\n" + Self.cues(memo.words, writeEach).map { "\($0.timing(separator: "."))\n\($0.text)\n" }.joined(separator: "\n")
        case .json: Self.json(memo)
        }
    }

    /// A subtitle: a run of words shown together.
    struct Cue {
        var start: Double
        var end: Double
        var text: String

        func timing(separator: Character) -> String {
            "\(Self.clock(start, separator)) --> \(Self.clock(end, separator))"
        }

        /// `hh:mm:ss,mmm` (SRT) or `hh:mm:ss.mmm` (WebVTT).
        static func clock(_ seconds: Double, _ separator: Character) -> String {
            let millis = Int((seconds * 1000).rounded())
            func pad(_ value: Int, _ width: Int) -> String {
                let digits = String(value)
                return String(repeating: "0", count: max(0, width - digits.count)) + digits
            }
            return
                "\(pad(millis / 3_600_000, 2)):\(pad(millis / 60_000 % 60, 2)):\(pad(millis / 1000 % 60, 2))\(separator)\(pad(millis % 1000, 3))"
        }
    }

    /// Words grouped into cues short enough to read: a cue ends after seven words, past three
    /// seconds, or at a pause of a second or more.
    /// A word that adds nothing (the rest of a spoken command) still times its cue; a cue of nothing written
    /// is left out, and a paragraph inside a cue is a line break (a blank line would end the cue).
    static func cues(_ words: [Word], _ writeEach: ([String]) -> [String]) -> [Cue] {
        var cues: [Cue] = []
        var count = 0
        for (word, written) in zip(words, writeEach(words.map(\.word))) {
            if var cue = cues.last, count < 7, word.end - cue.start <= 3, word.start - cue.end < 1 {
                cue.end = word.end
                cue.text += written
                cues[cues.count - 1] = cue
                count += 1
            } else {
                cues.append(Cue(start: word.start, end: word.end, text: written))
                count = 1
            }
        }
        return cues.compactMap { cue in
            let lines = cue.text.split(whereSeparator: \.isNewline).map { line in
                String(line.drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
            }
            let text = lines.filter { !$0.isEmpty }.joined(separator: "\n")
            return text.isEmpty ? nil : Cue(start: cue.start, end: cue.end, text: text)
        }
    }

    private struct Document: Encodable {
        var id: String
        var title: String
        var created: Int64
        var duration: Double
        var locale: String
        var status: String
        var transcript: String
        var written: String
        var words: [Word]
        var model: String
        var utteranceModels: [UtteranceModel]
    }

    private static func json(_ memo: Memo) -> String {
        let document = Document(
            id: memo.id, title: memo.title, created: memo.created, duration: memo.duration, locale: memo.locale,
            status: memo.status.rawValue, transcript: memo.transcript, written: memo.written, words: memo.words,
            model: memo.model, utteranceModels: memo.utteranceModels)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        // Encoding plain strings and numbers cannot fail.
        return String(decoding: (try? encoder.encode(document)) ?? Data(), as: UTF8.self) + "\n"
    }
}
