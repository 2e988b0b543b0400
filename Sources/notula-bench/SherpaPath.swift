import DBus
import Foundation
import NotulaContract
import NotulaTestSupport
import Speech

/// sherpa-onnx's path and Silero's detector: an utterance through the decoding helper with the made Parakeet and
/// Moonshine against Whisper tiny.en in the same helper; what Silero costs per second of audio in its helper against
/// the level meter; and where each ends utterances in real people's readings, against their sentence ends.
enum SherpaPath {
    private static let root = FileManager.default.currentDirectoryPath

    static func run(notulad: String, home: URL, bus: Bus, modelPath: String, whisperModel: String) async throws -> String {
        let engines: HelperEngines
        switch try HelperEngines.make(notulad: notulad, home: home, whisperModel: whisperModel) {
        case .success(let made): engines = made
        case .failure(let missing): return "## sherpa-onnx and Silero\n\n" + missing.sentence
        }
        let (sherpa, whisper, detector, place) = (engines.sherpa, engines.whisper, engines.detector, engines.place)

        var report = ["## sherpa-onnx and Silero", ""]
        report += try await perUtterance([
            ("Parakeet TDT (made model)", sherpa, "sherpa-onnx-nemo-parakeet-tdt-0.6b-v2-int8"),
            ("Moonshine (made model)", sherpa, "sherpa-onnx-moonshine-tiny-en-int8"), ("Whisper tiny.en", whisper, "ggml-tiny.en"),
        ])
        report += ["", try await sendToText(notulad: notulad, home: home, bus: bus, modelPath: modelPath, place: place)]
        report += ["", try sileroCost(detector, speech: try SpeechCorpus(in: home.appendingPathComponent("english"), script: .english))]
        let folder = root + "/.build/real-speech"
        let readings = try LabelledRecording.all(in: folder)
        guard !readings.isEmpty else {
            return (report + ["", "Real readings: skipped, no recordings in \(folder) (`scripts/install-real-speech`)."]).joined(separator: "\n")
        }
        report += ["", try await RealSpeechAccuracy.table(readings, models: engines.whisperModels, whisper: whisper, detector: detector)]
        report += ["", try cutsInLabelledRecordings(readings, detector: detector, whisper: whisper)]
        return report.joined(separator: "\n")
    }

    /// The median of 20 decodings of a 2.5 s utterance by each model, loaded and warm.
    private static func perUtterance(_ models: [(label: String, engine: any SpeechEngine, name: String)]) async throws -> [String] {
        let said = try speech("The patient reports mild chest pain.", voice: "en-us")
        let raw = said + ".raw"
        try output(of: "sox", said, "-r", "16000", "-c", "1", "-b", "16", "-e", "signed-integer", "-t", "raw", raw)
        let audio = try [UInt8](Data(contentsOf: URL(fileURLWithPath: raw)))
        var rows: [(label: String, milliseconds: Double)] = []
        for model in models {
            progress("decoding an utterance 20 times with \(model.label), in the decoding helper")
            guard let decoding = try model.engine.model(for: "en-US", named: model.name).utterances else { continue }
            var times: [Double] = []
            for round in 0..<22 {
                let (_, took) = try await timed { try await decoding.transcribe(utterance: audio, after: "", awaited: false) }
                if round >= 2 { times.append(took.seconds * 1000) }
            }
            rows.append((model.label, median(times)))
        }
        let whisper = rows.last?.milliseconds ?? .nan
        return [
            "An utterance of \(fixed(Double(audio.count) / 32_000, 2)) s decoded in the decoding helper (the request, the decoding, the answer), median of 20, warm:",
            "", "| model | per utterance | against Whisper tiny.en |", "|---|---:|---:|",
        ] + rows.map { "| \($0.label) | \(fixed($0.milliseconds, 1)) ms | \(fixed($0.milliseconds / whisper, 3)) |" }
    }

    /// From Send to the memo's accurate text of 12 s of English, the made Parakeet writing each utterance Vosk ends
    /// (the Korean model under an English name), against Whisper tiny.en in the same service.
    private static func sendToText(notulad: String, home: URL, bus: Bus, modelPath: String, place: URL) async throws -> String {
        let corpus = try SpeechCorpus(in: home.appendingPathComponent("english-12"), script: .english)
        let speech = try corpus.speech(lasting: 12)
        try FileManager.default.createSymbolicLink(
            at: place.appendingPathComponent("vosk-model-small-en-us-0.15"), withDestinationURL: URL(fileURLWithPath: modelPath))
        let sink = try await NullSink()
        let service = try await LaunchedService.start(
            notulad, home: home.appendingPathComponent("service"), bus: bus, arguments: ["--source", sink.monitor],
            environment: ["VOSK_MODEL_PATH": place.path], settings: #"{"locale": "en-US"}"#)
        try await service.pickLocaleAndWaitForModel("en-US")
        var rows: [String] = []
        for (label, model) in [("Parakeet TDT (made model)", "sherpa-onnx-nemo-parakeet-tdt-0.6b-v2-int8"), ("Whisper tiny.en", "ggml-tiny.en")] {
            _ = try await bus.call(
                MethodCall(
                    destination: NotulaBus.name, path: NotulaBus.modelsPath, interface: NotulaBus.modelsInterface,
                    member: NotulaBus.Models.Method.useModel.rawValue, arguments: [.string("en-US"), .string(model)]))
            var times: [Double] = []
            for round in 1...3 {
                progress("recording \(fixed(speech.seconds, 1)) s of English, each utterance written again by \(label) (\(round) of 3)")
                let sent = try await service.dictate(speech, through: sink)
                times.append((sent.latency + (try await service.accurateTextWait(of: sent.path))).seconds)
            }
            rows.append("| \(label) | \(fixed(median(times), 2)) s (\(times.map { fixed($0, 2) }.joined(separator: ", "))) |")
        }
        try await service.stop()
        return """
            From Send to the memo's accurate text, \(fixed(speech.seconds, 1)) s of espeak-ng's English, each utterance Vosk ends written \
            again by the model (three recordings each, median):

            | accurate model | Send → text |
            |---|---:|
            \(rows.joined(separator: "\n"))
            """
    }

    /// The voice helper's CPU per second of audio (beyond its start) against the level meter's in this process.
    private static func sileroCost(_ detector: VoiceHelperRun, speech corpus: SpeechCorpus) throws -> String {
        let spoken = try corpus.speech(lasting: 60)
        progress("Silero hearing \(fixed(spoken.seconds, 1)) s of speech in the voice helper")
        let bytes = try rawSamples(of: spoken.path)
        let started = try detector.run(on: [])
        let heard = try detector.run(on: bytes)
        let silero = (heard.cpu - started.cpu) / spoken.seconds
        let (_, level) = timed {
            var cutter = UtteranceCutter()
            for block in stride(from: 0, to: bytes.count, by: 640) { _ = cutter.take(Array(bytes[block..<min(block + 640, bytes.count)])) }
            _ = cutter.rest()
        }
        let meter = level.seconds / spoken.seconds
        return """
            Silero's detector in the voice helper, on \(fixed(spoken.seconds, 1)) s of espeak-ng's English: \
            **\(fixed(silero * 1000, 2)) ms of CPU per second of audio** (\(fixed(silero * 100, 2)) % of a core), besides \
            \(fixed(started.cpu * 1000, 0)) ms to start and load it; the level meter in notulad: \(fixed(meter * 1000, 3)) ms per second, \
            Silero \(fixed(silero / meter, 0)) times as much. It ended \(heard.spans.count) utterances.
            """
    }

    /// Where Silero and the level meter end utterances in real people's readings of 10 s or more, against the
    /// sentence ends Whisper tiny.en's punctuation places in them.
    private static func cutsInLabelledRecordings(_ readings: [LabelledRecording], detector: VoiceHelperRun, whisper: WhisperEngine) throws -> String {
        let model = try whisper.model(for: "en-US", named: "ggml-tiny.en")
        var rows: [String] = []
        // A phrase or two is no test of where utterances end.
        for reading in readings where reading.seconds >= 10 {
            progress("\(reading.name): where Silero and the level meter end utterances")
            let transcript = try model.transcribe(wavFile: reading.path, unless: { false })
            let sentenceEnds = transcript.words.filter { $0.word.last.map { ".!?;:".contains($0) } == true }.map(\.end)
            var level = UtteranceCutter()
            let levelSpans = level.take(reading.samples) + level.rest()
            let sileroSpans = try detector.run(on: reading.samples).spans
            // A cut is the quiet between two utterances; Whisper's sentence ends where its next segment starts, so
            // somewhere in that quiet, give or take half a second.
            func scored(_ spans: [(start: Double, end: Double)]) -> String {
                let cuts = zip(spans, spans.dropFirst()).map { (from: $0.end - 0.5, to: $1.start + 0.5) }
                let atSentence = cuts.filter { cut in sentenceEnds.contains { $0 >= cut.from && $0 <= cut.to } }.count
                let found = sentenceEnds.dropLast().filter { end in cuts.contains { end >= $0.from && end <= $0.to } }.count
                let longest = spans.map { $0.end - $0.start }.max() ?? 0
                return "\(spans.count) | \(atSentence) of \(cuts.count) | \(found) of \(max(0, sentenceEnds.count - 1)) | \(fixed(longest, 1)) s"
            }
            rows.append("| \(reading.name) (\(fixed(reading.seconds, 1)) s) | Silero | \(scored(sileroSpans)) |")
            rows.append("| | level meter | \(scored(levelSpans)) |")
        }
        return """
            Where utterances end in real people's readings: the cuts (the quiet between two utterances, ±0.5 s) holding a \
            sentence end (where Whisper tiny.en's next segment starts after a full stop, colon, semicolon, question or \
            exclamation mark), the sentence ends (but the last) in a cut, and the longest utterance:

            | recording | cut by | utterances | cuts at a sentence end | sentence ends cut | longest |
            |---|---|---:|---:|---:|---:|
            \(rows.joined(separator: "\n"))
            """
    }
}
