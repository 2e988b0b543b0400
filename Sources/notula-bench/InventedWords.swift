import Foundation
import NotulaTestSupport
import Speech

/// Words written where none were said: the clips of `scripts/make-quiet-clips` (silence, room tone, breathing, keys,
/// coughs, music, hum, noise, and speech followed by a long stretch of them) through each engine and each way a
/// recording reaches it.
enum InventedWords {
    /// A way the clips are written: its label, and the text it writes of a clip.
    private struct Path {
        let label: String
        let write: (LabelledRecording) async throws -> String
    }

    static func run(engines: HelperEngines, vosk: VoskLibrary, voskModel: String) async throws -> String {
        let folder = FileManager.default.currentDirectoryPath + "/.build/quiet-clips"
        let clips = try LabelledRecording.all(in: folder)
        guard !clips.isEmpty else { return "## No invented words\n\nSkipped: no clips in \(folder) (`scripts/make-quiet-clips`)." }
        var paths: [Path] = []
        for model in engines.whisperModels {
            let loaded = try engines.whisper.model(for: "en-US", named: model.name)
            guard let decoding = loaded.utterances else { continue }
            paths.append(Path(label: "\(model.label), the file whole (Transcribe)") { clip in
                try loaded.transcribe(wavFile: clip.path, unless: { false }).text
            })
            paths.append(Path(label: "\(model.label), Silero's utterances (the accurate pass)") { clip in
                try await utterancesWritten(try engines.detector.run(on: clip.samples).spans, of: clip, by: decoding)
            })
            paths.append(Path(label: "\(model.label), the level meter's utterances (no Silero)") { clip in
                var cutter = UtteranceCutter()
                return try await utterancesWritten(cutter.take(clip.samples) + cutter.rest(), of: clip, by: decoding)
            })
        }
        let korean = try SpeechModel(library: vosk, path: voskModel)
        paths.append(Path(label: "Vosk, the Korean test model, the file whole") { clip in
            try korean.transcribe(wavFile: clip.path).text
        })
        paths.append(Path(label: "Vosk, the Korean test model, its words kept where Silero hears speech (a memo)") { clip in
            let stretches = try engines.detector.run(on: clip.samples).spans
            return try korean.transcribe(wavFile: clip.path).keepingWords(within: stretches, margin: SpeechStretches.margin).text
        })

        var rows: [String] = []
        for path in paths {
            progress("\(clips.count) clips without speech, or speech then none: \(path.label)")
            var invented: [String] = []
            var count = 0
            var lost = 0
            for clip in clips {
                let heard = WordErrorRate.words(try await path.write(clip))
                // Speech is written as the engine hears it: a word it mishears is no word it invented.
                let extra = max(0, heard.count - clip.said.count)
                lost += max(0, clip.said.count - heard.count)
                if extra > 0 {
                    count += extra
                    invented.append("\(clip.name.dropLast(".wav".count)): “\(heard.joined(separator: " "))”")
                }
            }
            rows.append(
                "| \(path.label) | \(invented.count) of \(clips.count) | \(count) | \(lost) | \(invented.joined(separator: "; ")) |")
        }
        let speech = clips.filter { !$0.said.isEmpty }.count
        return """
            ## No invented words

            \(clips.count) clips of our own (`scripts/make-quiet-clips`, the same on every run): \(clips.count - speech) without speech \
            — silence, room tone, a fan, breathing, typing, mouse clicks, coughs, knocks, chords, plucked notes, an organ, \
            a buzz, a sweep, hum and noise, 8–30 s — and \(speech) of speech followed by 9–30 s of silence, room tone, typing \
            or music (espeak-ng's voice, and a real reader's). Words invented: the words written beyond those said; \
            words lost: those said and not written (fewer words written than said).

            | engine, the way the recording reaches it | clips with words invented | words invented | words lost | what was written |
            |---|---:|---:|---:|---|
            \(rows.joined(separator: "\n"))
            """
    }

    /// The text `decoding` writes of `spans` of `clip`, each after the text before it, the last as at Send.
    private static func utterancesWritten(
        _ spans: [(start: Double, end: Double)], of clip: LabelledRecording, by decoding: any UtteranceDecoding
    ) async throws -> String {
        var written: [String] = []
        for (index, span) in spans.enumerated() {
            let text = try await decoding.transcribe(
                utterance: clip.samples(of: span), after: written.last ?? "", awaited: index == spans.count - 1).text
            if !text.isEmpty { written.append(text) }
        }
        return written.joined(separator: " ")
    }
}
