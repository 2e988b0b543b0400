import Foundation
import NotulaTestSupport
import Speech

/// One file decoded whole by ours (`SpeechModel.transcribe(wavFile:)`, in this process) and by Vosk's Python
/// package, with the same libvosk build and model, in interleaved rounds.
enum FileTranscription {
    private enum Side { case ours, reference }

    /// Each round loads the model anew on both sides and decodes the file once on each, who goes first
    /// alternating, so that neither always meets the machine as the other left it.
    static func run(_ file: AudioFile, rounds: Int, library: VoskLibrary, modelPath: String) throws
        -> String
    {
        var ours: [(load: Duration, decode: Duration, transcript: Transcript)] = []
        var theirs: [ReferenceTranscriber.Decoding] = []
        for round in 0..<rounds {
            for side in round % 2 == 0 ? [Side.ours, .reference] : [.reference, .ours] {
                switch side {
                case .ours:
                    let (model, load) = try timed { () throws(SpeechError) in try SpeechModel(library: library, path: modelPath) }
                    let (transcript, decode) = try timed { () throws(SpeechError) in try model.transcribe(wavFile: file.path) }
                    ours.append((load, decode, transcript))
                case .reference:
                    theirs.append(try ReferenceTranscriber.decode(wavFile: file.path, model: modelPath))
                }
            }
        }

        let decode = (ours: Latencies(ours.map(\.decode)), theirs: Latencies(theirs.map(\.decode)))
        let load = (ours: Latencies(ours.map(\.load)), theirs: Latencies(theirs.map(\.load)))
        func ratio(_ a: Latencies, _ b: Latencies) -> String { fixed(a.median.seconds / b.median.seconds, 2) }
        func each(_ durations: [Duration]) -> String { durations.map { fixed($0.seconds, 2) }.joined(separator: " · ") }
        func realTime(_ latencies: Latencies) -> String { fixed(latencies.median.seconds / file.seconds, 3) }
        return """
            ## Transcription of a file: ours vs Vosk's Python package

            \(fixed(file.seconds, 1)) s of Korean speech (espeak-ng), model \(modelPath); \(rounds) rounds, each loading \
            the model and decoding the file once on each side, who goes first alternating. Medians.

            | \(rounds) rounds | ours (SpeechModel.transcribe) | reference (Python vosk) | ours ÷ reference |
            |---|---|---|---|
            | decode, median | \(secondsText(decode.ours.median)) | \(secondsText(decode.theirs.median)) | **\(ratio(decode.ours, decode.theirs))** |
            | decode, each round (s) | \(each(ours.map(\.decode))) | \(each(theirs.map(\.decode))) | |
            | decode ÷ audio length | \(realTime(decode.ours)) | \(realTime(decode.theirs)) | |
            | model load, median | \(secondsText(load.ours.median)) | \(secondsText(load.theirs.median)) | \(ratio(load.ours, load.theirs)) |

            Transcripts: \(comparison(ours.map(\.transcript), theirs.map(\.transcript)))
            """
    }

    /// Whether every round gave both sides the same transcript, word timings and confidences included.
    private static func comparison(_ ours: [Transcript], _ theirs: [Transcript]) -> String {
        let all = ours + theirs
        guard let first = all.first else { return "none" }
        if all.allSatisfy({ $0 == first }) {
            return "equal, ours and the reference's in every round: the text and every word's start, end and confidence "
                + "(\(first.words.count) words, starting «\(first.words.prefix(12).map(\.word).joined(separator: " "))…»)."
        }
        let differing = zip(ours, theirs).enumerated().filter { $1.0 != $1.1 }.map { round, pair in
            pair.0.text == pair.1.text
                ? "round \(round + 1): the same text, word timings or confidences differ"
                : "round \(round + 1): ours «\(pair.0.text)», the reference «\(pair.1.text)»"
        }
        return "**NOT equal**. "
            + (differing.isEmpty ? "Each round agrees, but rounds differ from each other." : differing.joined(separator: "; "))
    }
}
