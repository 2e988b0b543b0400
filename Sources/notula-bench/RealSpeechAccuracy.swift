import Foundation
import NotulaTestSupport
import Speech

/// Words wrong on real people's readings per Whisper model: each file decoded whole, and utterance by utterance as the
/// accurate pass decodes a recording (Silero's utterances, each after the previous one's text), with the time each
/// utterance took in the decoding helper on this machine's 2 cores.
enum RealSpeechAccuracy {
    private struct Tally {
        var wholeWrong = 0
        var utteranceWrong = 0
        var said = 0
        var wholeSeconds = 0.0
        var utteranceTimes: [Double] = []
        var audioSeconds = 0.0
    }

    static func table(
        _ readings: [LabelledRecording], models: [(label: String, name: String)], whisper: WhisperEngine, detector: VoiceHelperRun
    ) async throws -> String {
        let utterances = try readings.map { reading in
            try detector.run(on: reading.samples).spans.map(reading.samples(of:))
        }
        var rows: [String] = []
        var details: [String] = []
        for model in models {
            let loaded = try whisper.model(for: "en-US", named: model.name)
            guard let decoding = loaded.utterances else { continue }
            var tally = Tally()
            for (reading, pieces) in zip(readings, utterances) {
                progress("\(reading.name): \(model.label), the file whole and its \(pieces.count) utterances")
                let (whole, took) = try timed { try loaded.transcribe(wavFile: reading.path, unless: { false }) }
                var written: [String] = []
                for piece in pieces {
                    let (text, pieceTook) = try await timed {
                        try await decoding.transcribe(utterance: piece, after: written.last ?? "", awaited: false).text
                    }
                    tally.utteranceTimes.append(pieceTook.seconds)
                    written.append(text)
                }
                let wholeWrong = WordErrorRate.errors(WordErrorRate.words(whole.text), against: reading.said)
                let utteranceWrong = WordErrorRate.errors(WordErrorRate.words(written.joined(separator: " ")), against: reading.said)
                tally.wholeWrong += wholeWrong
                tally.utteranceWrong += utteranceWrong
                tally.said += reading.said.count
                tally.wholeSeconds += took.seconds
                tally.audioSeconds += reading.seconds
                details.append(
                    "| \(reading.name) | \(fixed(reading.seconds, 1)) s | \(model.label) | \(share(wholeWrong, of: reading.said.count)) | "
                        + "\(share(utteranceWrong, of: reading.said.count)) | \(written.joined(separator: " ")) |")
            }
            let times = tally.utteranceTimes
            rows.append(
                "| \(model.label) | \(share(tally.wholeWrong, of: tally.said)) | \(share(tally.utteranceWrong, of: tally.said)) | "
                    + "\(times.count) | \(fixed(median(times) * 1000, 0)) ms | \(fixed((times.max() ?? 0) * 1000, 0)) ms | "
                    + "\(fixed(times.reduce(0, +) / tally.audioSeconds, 3)) |")
        }
        let seconds = readings.reduce(0) { $0 + $1.seconds }
        return """
            Words wrong on real people's readings (\(readings.count) recordings, \(fixed(seconds, 1)) s, \
            \(readings.reduce(0) { $0 + $1.said.count }) words; LibriVox and CMU speakers, `scripts/install-real-speech`), against each \
            package's transcript (lower case, punctuation and hyphens dropped; a numeral and its word differ), each model in \
            the decoding helper with 2 threads: the file decoded whole, and cut by Silero into utterances decoded one by one \
            after the previous one's text, as the accurate pass writes a recording; the time per utterance is the request, \
            the decoding and the answer. Vosk is not in the table: the only Vosk model installable here is Korean. \
            Parakeet and Moonshine are not either: no weights of theirs install offline (the made models say nothing of accuracy).

            | model | words wrong, file whole | words wrong, by utterance | utterances | per utterance, median | longest | of real time |
            |---|---:|---:|---:|---:|---:|---:|
            \(rows.joined(separator: "\n"))

            | recording | length | model | wrong, whole | wrong, by utterance | text by utterance |
            |---|---:|---|---:|---:|---|
            \(details.joined(separator: "\n"))
            """
    }

    private static func share(_ wrong: Int, of said: Int) -> String {
        "\(wrong) of \(said) (\(fixed(100 * Double(wrong) / Double(max(1, said)), 1)) %)"
    }
}
