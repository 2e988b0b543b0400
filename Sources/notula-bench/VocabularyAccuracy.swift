import Foundation
import NotulaTestSupport
import Speech
import Writing

/// The user's vocabulary, measured: twenty sentences of ours, each holding a rare term (drugs, surnames, places,
/// `Tests/Fixtures/vocabulary-sentences.txt`), spoken by espeak-ng and written by Whisper tiny.en without the
/// vocabulary, with its correction alone, with its prompt alone and with both: the share of the terms spelled right,
/// and the words wrong outside them, which the vocabulary must not raise.
enum VocabularyAccuracy {
    private static let fixture = FileManager.default.currentDirectoryPath + "/Tests/Fixtures/vocabulary-sentences.txt"

    private struct Sentence {
        let term: String
        let text: String
        let audio: [UInt8]
    }

    private struct Way {
        let label: String
        let prompted: Bool
        let corrected: Bool
    }

    static func run(notulad: String, home: URL, whisperModel: String) async throws -> String {
        let binaries = URL(fileURLWithPath: notulad).deletingLastPathComponent().path
        let library = binaries + "/whisper/libwhisper.so.1"
        guard FileManager.default.fileExists(atPath: whisperModel), FileManager.default.fileExists(atPath: library) else {
            return "## The user's vocabulary\n\nSkipped: \(whisperModel) or \(library) is missing (`scripts/install-whisper BIN --test`)."
        }
        let place = home.appendingPathComponent("models")
        try FileManager.default.createDirectory(at: place, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(
            atPath: place.appendingPathComponent("ggml-tiny.en.bin").path, withDestinationPath: whisperModel)
        let sentences = try spokenSentences()
        let vocabulary = try Vocabulary(checking: sentences.map(\.term))
        let helper = DecodingHelper(executable: notulad, libraries: .init(whisper: library, sherpa: nil), idleRelease: .seconds(120))
        let plain = WhisperEngine(helper: helper, modelPlaces: [place.path])
        let prompted = WhisperEngine(helper: helper, modelPlaces: [place.path], vocabulary: { vocabulary.terms })
        var heard: [Bool: [String]] = [:]
        for (isPrompted, engine) in [(false, plain), (true, prompted)] {
            progress(
                "writing \(sentences.count) sentences of rare terms with Whisper tiny.en, \(isPrompted ? "prompted with" : "without") the vocabulary"
            )
            guard let decoding = try engine.model(for: "en-US", named: "ggml-tiny.en").utterances else { continue }
            var texts: [String] = []
            for sentence in sentences {
                texts.append(try await decoding.transcribe(utterance: sentence.audio, after: "", awaited: false).text)
            }
            heard[isPrompted] = texts
        }
        let correction = VocabularyCorrection(vocabulary)
        let ways = [
            Way(label: "without the vocabulary", prompted: false, corrected: false),
            Way(label: "the correction alone (any engine)", prompted: false, corrected: true),
            Way(label: "Whisper's prompt alone", prompted: true, corrected: false),
            Way(label: "prompt and correction (Whisper)", prompted: true, corrected: true),
        ]
        var report = [
            "## The user's vocabulary", "",
            "\(sentences.count) sentences of ours, each with a rare term (`Tests/Fixtures/vocabulary-sentences.txt`), spoken by espeak-ng "
                + "(en-us) and written by Whisper tiny.en; the other words wrong are those outside the term, against the words said:",
            "", "| written | terms spelled right | other words wrong |", "|---|---:|---:|",
        ]
        var examples: [String] = []
        for way in ways {
            var right = 0
            var otherErrors = 0
            var otherWords = 0
            for (index, sentence) in sentences.enumerated() {
                let words = (heard[way.prompted]?[index] ?? "").split(separator: " ").map(String.init)
                let written = DictatedText(locale: "en-US", vocabulary: way.corrected ? correction : .none).write(words)
                let said = WordErrorRate.words(sentence.text)
                let termWords = WordErrorRate.words(sentence.term)
                let got = WordErrorRate.words(written)
                if contains(got, termWords) {
                    right += 1
                } else if way.prompted && way.corrected {
                    examples.append("\(sentence.term): \(written)")
                }
                otherErrors += errorsOutside(term: termWords, heard: got, said: said)
                otherWords += said.count - termWords.count
            }
            report.append(
                "| \(way.label) | \(right) of \(sentences.count) (\(fixed(Double(right) * 100 / Double(sentences.count), 0)) %) | "
                    + "\(otherErrors) of \(otherWords) (\(fixed(Double(otherErrors) * 100 / Double(otherWords), 1)) %) |")
        }
        if !examples.isEmpty { report += ["", "Still wrong with both:", ""] + examples.map { "- \($0)" } }
        report += ["", correctionCost(sentences.map(\.text), terms: vocabulary.terms)]
        return report.joined(separator: "\n")
    }

    /// What the correction costs at its bound: the sentences' 1 000 words written against 500 terms (the twenty and
    /// 480 made-up words of drug-like shape), median of 10 — live typing writes a recording's words again at each
    /// utterance.
    private static func correctionCost(_ texts: [String], terms: [String]) -> String {
        let syllables = ["ba", "cor", "dex", "fen", "li", "mo", "nar", "pra", "sol", "ti", "vo", "zin"]
        // Three syllables of twelve, each term its own: "dexmopraine".
        let madeUp = (0..<(Vocabulary.mostTerms - terms.count)).map { (index: Int) -> String in
            let parts: [String] = [syllables[index % 12], syllables[index / 12 % 12], syllables[index / 144 % 12], "ine"]
            return parts.joined()
        }
        let vocabulary = (try? Vocabulary(checking: terms + madeUp)) ?? .none
        let words = Array(repeatElement(texts.joined(separator: " ").split(separator: " ").map(String.init), count: 10).joined().prefix(1000))
        let text = DictatedText(locale: "en-US", vocabulary: VocabularyCorrection(vocabulary))
        let times = (0..<10).map { _ in timed { text.write(words) }.duration.seconds * 1000 }
        return "Written text of \(words.count) words against \(vocabulary.terms.count) terms: \(fixed(median(times), 1)) ms (median of 10)."
    }

    /// The fixture's sentences, spoken, as 16 kHz mono 16-bit samples.
    private static func spokenSentences() throws -> [Sentence] {
        let lines = try String(contentsOfFile: fixture, encoding: .utf8).split(separator: "\n").filter { !$0.hasPrefix("#") }
        return try lines.map { line in
            let fields = line.split(separator: "\t").map(String.init)
            let said = try speech(fields[1], voice: "en-us")
            let raw = said + ".raw"
            try output(of: "sox", said, "-r", "16000", "-c", "1", "-b", "16", "-e", "signed-integer", "-t", "raw", raw)
            defer { try? FileManager.default.removeItem(atPath: said) }
            defer { try? FileManager.default.removeItem(atPath: raw) }
            return Sentence(term: fields[0], text: fields[1], audio: try [UInt8](Data(contentsOf: URL(fileURLWithPath: raw))))
        }
    }

    private static func contains(_ words: [String], _ run: [String]) -> Bool {
        words.count >= run.count && (0...words.count - run.count).contains { Array(words[$0..<$0 + run.count]) == run }
    }

    /// The word errors of `heard` against `said` that are not the term's: a word said outside the term and missed
    /// or changed, or a word put in with no word of the term on either side.
    private static func errorsOutside(term: [String], heard: [String], said: [String]) -> Int {
        let start = (0...max(0, said.count - term.count)).first { Array(said[$0..<min(said.count, $0 + term.count)]) == term } ?? said.count
        let isTerm = { (index: Int) in index >= start && index < start + term.count }
        // distance[i][j]: the edits from said[..<i] to heard[..<j].
        var distance = [[Int]](repeating: [Int](repeating: 0, count: heard.count + 1), count: said.count + 1)
        for i in 0...said.count { distance[i][0] = i }
        for j in 0...heard.count { distance[0][j] = j }
        for i in stride(from: 1, through: said.count, by: 1) {
            for j in stride(from: 1, through: heard.count, by: 1) {
                distance[i][j] = min(
                    distance[i - 1][j] + 1, distance[i][j - 1] + 1, distance[i - 1][j - 1] + (said[i - 1] == heard[j - 1] ? 0 : 1))
            }
        }
        var (i, j, errors) = (said.count, heard.count, 0)
        while i > 0 || j > 0 {
            if i > 0, j > 0, distance[i][j] == distance[i - 1][j - 1] + (said[i - 1] == heard[j - 1] ? 0 : 1) {
                if said[i - 1] != heard[j - 1], !isTerm(i - 1) { errors += 1 }
                (i, j) = (i - 1, j - 1)
            } else if i > 0, distance[i][j] == distance[i - 1][j] + 1 {
                if !isTerm(i - 1) { errors += 1 }
                i -= 1
            } else {
                // A word put in between said[i - 1] and said[i].
                if !(i > 0 && isTerm(i - 1)) && !isTerm(i) { errors += 1 }
                j -= 1
            }
        }
        return errors
    }
}
