import DBus
import Foundation
import NotulaContract
import NotulaTestSupport

/// The accurate pass: English recordings whose utterances a Whisper model writes again while the next is spoken, the
/// time from Send to their text against the same memo decoded whole by that model after Send (Transcribe), and the
/// words it gets wrong; tiny.en, and base where it is installed. Each length is recorded twice: sent at the last
/// word, and sent after a pause (the user's reach for Send), which the utterance under way is decoded ahead in.
enum AccurateLatency {
    private struct Row {
        let recorded: Double
        let sent: SentMemo
        let sentAfterPause: SentMemo
        let afterSend: Duration
        let wrong: (atLastWord: Int, afterPause: Int)
        let said: Int
    }

    /// The user's pause between the last word and Send.
    static let pauseBeforeSend = 0.5

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
                let said = WordErrorRate.words(corpus.text(lasting: length))
                var sent: [(memo: SentMemo, wrong: Int)] = []
                for pause in [0, pauseBeforeSend] {
                    let speech = try corpus.speech(lasting: length, thenQuiet: pause)
                    progress(
                        "recording \(fixed(speech.seconds, 1)) s of English speech (sent \(fixed(pause, 1)) s after the last word), "
                            + "each utterance written again by \(model.label)")
                    let memo = try await service.dictate(speech, through: sink)
                    // Whisper's text of the last utterances, where it came after Processed.
                    let wait = try await service.accurateTextWait(of: memo.path)
                    let text = try await service.text(of: memo.path)
                    sent.append(
                        (SentMemo(path: memo.path, latency: memo.latency + wait, streamed: memo.streamed),
                         WordErrorRate.errors(WordErrorRate.words(text), against: said)))
                }
                let afterSend = try await service.transcribeAgain(sent[0].memo.path, model: name)
                rows.append(
                    Row(
                        recorded: try corpus.speech(lasting: length).seconds, sent: sent[0].memo, sentAfterPause: sent[1].memo,
                        afterSend: afterSend, wrong: (sent[0].wrong, sent[1].wrong), said: said.count))
            }
            sections.append(report(model.label, rows: rows, log: String(service.log.dropFirst(logBefore)), helperPeak: helperPeakBytes(of: service.pid)))
        }
        try await service.stop()
        return """
            ## The accurate pass: Send → Whisper's text, and decoding the memo after Send

            English speech (the tests' sentences, espeak-ng's en-us voice, 0.7 s pauses) played in real time into a \
            notulad recording en-US: Vosk's Korean model under an English name ends the utterances, the Whisper model \
            (2 threads, in the helper process) writes each again while the next is spoken, and the utterance under way \
            piece by piece at each pause of 0.3 s. Send → text is the Process call to Processed, Send coming at the \
            last word, or \(fixed(pauseBeforeSend, 1)) s later (a user's reach for the button, a pause the last piece \
            is decoded in); after Send is the same memo transcribed again whole by the same model (Transcribe: what a \
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
            "| \(fixed(row.recorded, 1)) s | **\(secondsText(row.sent.latency))** | **\(secondsText(row.sentAfterPause.latency))** | "
                + "\(secondsText(row.afterSend)) | \(fixed(row.afterSend.seconds / row.sent.latency.seconds, 1)) | "
                + "\(row.wrong.atLastWord) / \(row.wrong.afterPause) of \(row.said) "
                + "(\(fixed(100 * Double(row.wrong.atLastWord) / Double(max(1, row.said)), 1)) %) |"
        }
        let sorted = factors.sorted()
        let factorText =
            sorted.isEmpty
            ? "none logged"
            : "median \(fixed(sorted[sorted.count / 2], 2)), worst \(fixed(sorted.last!, 2)) over \(sorted.count) utterances"
        let atSendText = atSend.map { decoding in
            "\(fixed(decoding.took, 2)) s for \(fixed(decoding.audio, 1)) s"
                + (decoding.fromPieces ? ", from its pieces decoded ahead" : "")
        }.joined(separator: "; ")
        let ahead = log.split(separator: "\n").compactMap { line in
            line.range(of: "Decoded ahead ").flatMap { _ in line.range(of: "under way in ") }.flatMap {
                Double(line[$0.upperBound...].split(separator: " ").first ?? "")
            }
        }.sorted()
        let aheadText =
            ahead.isEmpty
            ? "no piece decoded ahead"
            : "\(ahead.count) pieces of utterances under way decoded ahead at pauses (median \(fixed(ahead[ahead.count / 2], 2)) s)"

        return """
            \(label):

            | recording | Send at the last word → text | Send \(fixed(pauseBeforeSend, 1)) s later → text | \
            whole memo after Send | after Send ÷ Send at the last word | words wrong (at the last word / later) |
            |---|---|---|---|---|---|
            \(table.joined(separator: "\n"))

            Real-time factor per utterance (decoding time ÷ its audio, the helper's queue): \(factorText); \
            \(aheadText); \(atSend.count) waited for by Send (\(atSendText.isEmpty ? "none" : atSendText)); \
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
        /// Written from the pieces decoded ahead at its pauses.
        let fromPieces: Bool
    }

    /// "Utterance 3 (4.2 s of audio) written again in 0.81 s", or "(4.2 s of audio, after Send)", and "…, decoded ahead
    /// at its pauses".
    private static func decodings(in log: String) -> [Decoding] {
        log.split(separator: "\n").compactMap { line in
            guard let open = line.range(of: "Utterance "), let again = line.range(of: "written again in "),
                let audio = Double(line[open.upperBound...].split(separator: " ").dropFirst().first?.dropFirst() ?? ""),
                let took = Double(line[again.upperBound...].split(separator: " ").first ?? ""), audio > 0
            else { return nil }
            return Decoding(
                audio: audio, took: took, afterSend: line.contains("after Send)"), fromPieces: line.contains("decoded ahead at its pauses"))
        }
    }
}
