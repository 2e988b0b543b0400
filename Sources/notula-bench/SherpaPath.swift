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
        let binaries = URL(fileURLWithPath: notulad).deletingLastPathComponent().path
        let library = binaries + "/sherpa/libsherpa-onnx-c-api.so"
        let made = root + "/.build/sherpa"
        let missing = [library, made + "/SENTENCE", whisperModel, binaries + "/sherpa/silero_vad.onnx"].filter {
            !FileManager.default.fileExists(atPath: $0)
        }
        guard missing.isEmpty else {
            return "## sherpa-onnx and Silero\n\nSkipped: \(missing.joined(separator: ", ")) missing (`scripts/install-sherpa BIN --test`)."
        }
        let place = home.appendingPathComponent("models")
        try FileManager.default.createDirectory(at: place, withIntermediateDirectories: true)
        for (name, target) in [
            ("sherpa-onnx-nemo-parakeet-tdt-0.6b-v2-int8", made + "/parakeet"), ("sherpa-onnx-moonshine-tiny-en-int8", made + "/moonshine"),
            ("ggml-tiny.en.bin", whisperModel),
        ] {
            try FileManager.default.createSymbolicLink(atPath: place.appendingPathComponent(name).path, withDestinationPath: target)
        }
        let helper = DecodingHelper(
            executable: notulad, libraries: .init(whisper: binaries + "/whisper/libwhisper.so.1", sherpa: library), idleRelease: .seconds(120))
        let sherpa = SherpaEngine(helper: helper, modelPlaces: [place.path])
        let whisper = WhisperEngine(helper: helper, modelPlaces: [place.path])

        var report = ["## sherpa-onnx and Silero", ""]
        report += try await perUtterance([
            ("Parakeet TDT (made model)", sherpa, "sherpa-onnx-nemo-parakeet-tdt-0.6b-v2-int8"),
            ("Moonshine (made model)", sherpa, "sherpa-onnx-moonshine-tiny-en-int8"), ("Whisper tiny.en", whisper, "ggml-tiny.en"),
        ])
        report += ["", try await sendToText(notulad: notulad, home: home, bus: bus, modelPath: modelPath, place: place)]
        let detector = VoiceHelperRun(notulad: notulad, library: library, model: binaries + "/sherpa/silero_vad.onnx")
        report += ["", try sileroCost(detector, speech: try SpeechCorpus(in: home.appendingPathComponent("english"), script: .english))]
        report += ["", try await realReadings(detector, whisper: whisper)]
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

    /// Whisper tiny.en's words wrong in each real reading of `.build/real-speech`, and where Silero and the level meter
    /// end utterances in those of 10 s or more, against the sentence ends Whisper's punctuation places in them.
    private static func realReadings(_ detector: VoiceHelperRun, whisper: WhisperEngine) async throws -> String {
        let folder = root + "/.build/real-speech"
        let recordings = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter { $0.hasSuffix(".wav") }.sorted()
        guard !recordings.isEmpty else { return "Real readings: skipped, no recordings in \(folder) (`scripts/install-real-speech`)." }
        let model = try whisper.model(for: "en-US", named: "ggml-tiny.en")
        var rows: [String] = []
        var accuracy: [String] = []
        var totals = (wrong: 0, said: 0, seconds: 0.0, took: 0.0)
        for name in recordings {
            let path = folder + "/" + name
            progress("\(name): Whisper tiny.en's words, and where utterances end")
            let bytes = try rawSamples(of: path)
            let seconds = Double(bytes.count) / 32_000
            let (transcript, took) = try timed { try model.transcribe(wavFile: path, unless: { false }) }
            let said = WordErrorRate.words(try String(contentsOfFile: path.replacingOccurrences(of: ".wav", with: ".txt"), encoding: .utf8))
            let wrong = WordErrorRate.errors(WordErrorRate.words(transcript.text), against: said)
            totals = (totals.wrong + wrong, totals.said + said.count, totals.seconds + seconds, totals.took + took.seconds)
            accuracy.append(
                "| \(name) | \(fixed(seconds, 1)) s | \(wrong) of \(said.count) (\(fixed(100 * Double(wrong) / Double(max(1, said.count)), 1)) %) | "
                    + "\(fixed(took.seconds, 2)) s | \(transcript.text) |")
            // A phrase or two is no test of where utterances end.
            guard seconds >= 10 else { continue }
            let sentenceEnds = transcript.words.filter { $0.word.last.map { ".!?;:".contains($0) } == true }.map(\.end)
            var level = UtteranceCutter()
            let levelSpans = level.take(bytes) + level.rest()
            let sileroSpans = try detector.run(on: bytes).spans
            // A cut is the quiet between two utterances; Whisper's sentence ends where its next segment starts, so
            // somewhere in that quiet, give or take half a second.
            func scored(_ spans: [(start: Double, end: Double)]) -> String {
                let cuts = zip(spans, spans.dropFirst()).map { (from: $0.end - 0.5, to: $1.start + 0.5) }
                let atSentence = cuts.filter { cut in sentenceEnds.contains { $0 >= cut.from && $0 <= cut.to } }.count
                let found = sentenceEnds.dropLast().filter { end in cuts.contains { end >= $0.from && end <= $0.to } }.count
                let longest = spans.map { $0.end - $0.start }.max() ?? 0
                return "\(spans.count) | \(atSentence) of \(cuts.count) | \(found) of \(max(0, sentenceEnds.count - 1)) | \(fixed(longest, 1)) s"
            }
            rows.append("| \(name) (\(fixed(seconds, 1)) s) | Silero | \(scored(sileroSpans)) |")
            rows.append("| | level meter | \(scored(levelSpans)) |")
        }
        let pooled = 100 * Double(totals.wrong) / Double(max(1, totals.said))
        return """
            Words wrong on real people's readings, each file decoded whole by Whisper tiny.en in the decoding helper \
            (loaded, 2 threads), against its package's transcript (lower case, punctuation and hyphens dropped; a numeral \
            and its word differ): **\(totals.wrong) of \(totals.said) words wrong, \(fixed(pooled, 1)) %**, \(fixed(totals.took, 1)) s \
            for \(fixed(totals.seconds, 1)) s of speech (\(fixed(totals.took / totals.seconds, 3)) of real time).

            | recording | length | words wrong | decoded in | Whisper tiny.en's text |
            |---|---:|---:|---:|---|
            \(accuracy.joined(separator: "\n"))

            Where utterances end in real people's readings: the cuts (the quiet between two utterances, ±0.5 s) holding a \
            sentence end (where Whisper tiny.en's next segment starts after a full stop, colon, semicolon, question or \
            exclamation mark), the sentence ends (but the last) in a cut, and the longest utterance:

            | recording | cut by | utterances | cuts at a sentence end | sentence ends cut | longest |
            |---|---|---:|---:|---:|---:|
            \(rows.joined(separator: "\n"))
            """
    }

    private static func rawSamples(of file: String) throws -> [UInt8] {
        let raw = FileManager.default.temporaryDirectory.appendingPathComponent("notula-bench-\(UUID().uuidString).raw").path
        defer { try? FileManager.default.removeItem(atPath: raw) }
        try output(of: "sox", file, "-r", "16000", "-c", "1", "-b", "16", "-e", "signed-integer", "-t", "raw", raw)
        return try [UInt8](Data(contentsOf: URL(fileURLWithPath: raw)))
    }
}

/// `notulad --voice-helper` run to the end of some samples: the utterances it ends and the CPU it took.
private struct VoiceHelperRun {
    let notulad: String
    let library: String
    let model: String

    func run(on bytes: [UInt8]) throws -> (spans: [(start: Double, end: Double)], cpu: Double) {
        let input = FileManager.default.temporaryDirectory.appendingPathComponent("notula-bench-\(UUID().uuidString).raw").path
        defer { try? FileManager.default.removeItem(atPath: input) }
        try Data(bytes).write(to: URL(fileURLWithPath: input))
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, input, O_RDONLY, 0)
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { throw SpawnFailed(message: "no pipe for the voice helper") }
        posix_spawn_file_actions_adddup2(&actions, ends[1], 1)
        posix_spawn_file_actions_addclose(&actions, ends[0])
        let arguments: [String] = [notulad, VoiceHelperServer.argument, library, model]
        let argv = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, notulad, &actions, nil, argv, environ)
        close(ends[1])
        guard spawned == 0 else {
            close(ends[0])
            throw SpawnFailed(message: "the voice helper could not be started: \(String(cString: strerror(spawned)))")
        }
        let text = String(decoding: FileHandle(fileDescriptor: ends[0], closeOnDealloc: true).readDataToEndOfFile(), as: UTF8.self)
        var status: Int32 = 0
        var usage = rusage()
        _ = wait4(pid, &status, 0, &usage)
        guard status == 0 else { throw SpawnFailed(message: "the voice helper ended with status \(status)") }
        let cpu = [usage.ru_utime, usage.ru_stime].reduce(0.0) { $0 + Double($1.tv_sec) + Double($1.tv_usec) / 1e6 }
        let spans = text.split(separator: "\n").compactMap { line -> (start: Double, end: Double)? in
            let fields = line.split(separator: " ").compactMap { Double($0) }
            return fields.count == 2 ? (fields[0], fields[1]) : nil
        }
        return (spans, cpu)
    }
}
