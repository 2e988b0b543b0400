import DBus
import Foundation
import NotulaContract
import NotulaTestSupport

/// The accurate pass: English recordings whose utterances a Whisper model writes again while the next is spoken, the
/// time from Send to their text against the same memo decoded whole by that model after Send (Transcribe), and the
/// words it gets wrong; tiny.en, and base where it is installed.
enum AccurateLatency {
    private struct Row {
        let recorded: Double
        let sent: SentMemo
        let afterSend: Duration
        let wrong: Int
        let said: Int
    }

    /// Records English speech of each of `lengths` (seconds) once per Whisper model of `models` (tiny.en, and base
    /// where `scripts/install-whisper-base` put it). Vosk's Korean model, under an English model's name, only tells
    /// where utterances end: the text is Whisper's.
    static func run(
        lengths: [Double], notulad: String, home: URL, bus: Bus, modelPath: String, models: [(label: String, file: String)]
    ) async throws -> String {
        let corpus = try SpeechCorpus(in: home.appendingPathComponent("english"), script: .english)
        let sink = try await NullSink()
        let place = home.appendingPathComponent("models")
        try FileManager.default.createDirectory(at: place, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(
            at: place.appendingPathComponent("vosk-model-small-en-us-0.15"), withDestinationURL: URL(fileURLWithPath: modelPath))
        for model in models {
            try FileManager.default.createSymbolicLink(
                at: place.appendingPathComponent(URL(fileURLWithPath: model.file).lastPathComponent),
                withDestinationURL: URL(fileURLWithPath: model.file))
        }
        let service = try await LaunchedService.start(
            notulad, home: home, bus: bus, arguments: ["--source", sink.monitor], environment: ["VOSK_MODEL_PATH": place.path],
            settings: #"{"locale": "en-US"}"#)
        try await service.pickLocaleAndWaitForModel("en-US")

        var sections: [String] = []
        for model in models {
            let name = String(URL(fileURLWithPath: model.file).deletingPathExtension().lastPathComponent)
            _ = try await bus.call(
                MethodCall(
                    destination: NotulaBus.name, path: NotulaBus.modelsPath, interface: NotulaBus.modelsInterface,
                    member: NotulaBus.Models.Method.useModel.rawValue, arguments: [.string("en-US"), .string(name)]))
            let logBefore = service.log.count
            var rows: [Row] = []
            for length in lengths {
                let speech = try corpus.speech(lasting: length)
                progress("recording \(fixed(speech.seconds, 1)) s of English speech, each utterance written again by \(model.label)")
                var sent = try await service.dictate(speech, through: sink)
                // Whisper's text of the last utterances, where it came after Processed.
                let wait = try await service.accurateTextWait(of: sent.path)
                sent = SentMemo(path: sent.path, latency: sent.latency + wait, streamed: sent.streamed)
                let text = try await service.text(of: sent.path)
                let said = WordErrorRate.words(corpus.text(lasting: length))
                let wrong = WordErrorRate.errors(WordErrorRate.words(text), against: said)
                let afterSend = try await service.transcribeAgain(sent.path, model: name)
                rows.append(Row(recorded: speech.seconds, sent: sent, afterSend: afterSend, wrong: wrong, said: said.count))
            }
            sections.append(report(model.label, rows: rows, log: String(service.log.dropFirst(logBefore)), helperPeak: helperPeakBytes(of: service.pid)))
        }
        try await service.stop()
        return """
            ## The accurate pass: Send → Whisper's text, and decoding the memo after Send

            English speech (the tests' sentences, espeak-ng's en-us voice, 0.7 s pauses) played in real time into a \
            notulad recording en-US: Vosk's Korean model under an English name ends the utterances, the Whisper model \
            (2 threads, in the helper process) writes each again while the next is spoken. Send → text is the Process \
            call to Processed; after Send is the same memo transcribed again whole by the same model (Transcribe: what a \
            tool that runs Whisper after the user stops makes them wait). Words wrong: Levenshtein over words against \
            what was said. One recording of each length per model: single rounds.

            \(sections.joined(separator: "\n\n"))
            """
    }

    /// One model's table and what its decodings logged.
    private static func report(_ label: String, rows: [Row], log: String, helperPeak: Int?) -> String {
        let decoded = decodings(in: log)
        let factors = decoded.map { $0.took / $0.audio }
        let atSend = decoded.filter(\.afterSend)
        let redone = log.components(separatedBy: "decoding it in the full window").count - 1
        let late = log.components(separatedBy: "not ready in time").count - 1
        let table = rows.map { row in
            "| \(fixed(row.recorded, 1)) s | **\(secondsText(row.sent.latency))** | \(secondsText(row.afterSend)) | "
                + "\(fixed(row.afterSend.seconds / row.sent.latency.seconds, 1)) | \(row.wrong) of \(row.said) "
                + "(\(fixed(100 * Double(row.wrong) / Double(max(1, row.said)), 1)) %) |"
        }
        let sorted = factors.sorted()
        let factorText =
            sorted.isEmpty
            ? "none logged"
            : "median \(fixed(sorted[sorted.count / 2], 2)), worst \(fixed(sorted.last!, 2)) over \(sorted.count) utterances"
        let atSendText = atSend.map { "\(fixed($0.took, 2)) s for \(fixed($0.audio, 1)) s" }.joined(separator: ", ")
        return """
            \(label):

            | recording | Send → text | whole memo after Send | after Send ÷ Send → text | words wrong |
            |---|---|---|---|---|
            \(table.joined(separator: "\n"))

            Real-time factor per utterance (decoding time ÷ its audio, the helper's queue): \(factorText); \
            \(atSend.count) waited for by Send, in the fitted window (\(atSendText.isEmpty ? "none" : atSendText)); \
            \(redone) decoded again in the full 30 s window after the fitted one's text looked wrong (\(redone - late)) or \
            came late (\(late)). \
            The helper's peak memory (VmHWM): \(helperPeak.map { "\($0 / 1_000_000) MB" } ?? "not seen").
            """
    }

    /// The decoding helper's peak resident memory, while it still runs.
    private static func helperPeakBytes(of service: pid_t) -> Int? {
        let pids = ((try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []).compactMap { Int32($0) }
        for pid in pids {
            let command = String(decoding: FileManager.default.contents(atPath: "/proc/\(pid)/cmdline") ?? Data(), as: UTF8.self)
            guard command.contains("--decoding-helper"),
                let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
                status.contains("PPid:\t\(service)\n"),
                let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") })
            else { continue }
            return (Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0) * 1024
        }
        return nil
    }

    /// An utterance the service logged written again: its audio, the decoding time, and whether Send waited for it.
    private struct Decoding {
        let audio: Double
        let took: Double
        let afterSend: Bool
    }

    /// "Utterance 3 (4.2 s of audio) written again in 0.81 s", or "(4.2 s of audio, after Send)".
    private static func decodings(in log: String) -> [Decoding] {
        log.split(separator: "\n").compactMap { line in
            guard let open = line.range(of: "Utterance "), let again = line.range(of: "written again in "),
                let audio = Double(line[open.upperBound...].split(separator: " ").dropFirst().first?.dropFirst() ?? ""),
                let took = Double(line[again.upperBound...].split(separator: " ").first ?? ""), audio > 0
            else { return nil }
            return Decoding(audio: audio, took: took, afterSend: line.contains("after Send)"))
        }
    }
}
