import DBus
import Foundation
import NotulaTestSupport
import Speech

/// How long the text of a recording takes once it is sent, when it was decoded while captured, against what
/// decoding its file after the stop would take.
///
/// Streaming leaves only the end of the last utterance to decode at Send, so its latency should not grow with
/// the recording's length and should stay within a few tenths of a second of decoding that last utterance alone.
enum StreamedLatency {
    /// Decodings of the last utterance, for its median.
    static let lastUtteranceRounds = 3

    private struct Row {
        let recorded: Double
        let sent: SentMemo
        let afterStop: Duration
        /// Whether the text sent equals the recorded file's, decoded whole.
        let sameText: Bool

        /// The last column: whether the text was decoded while captured and equals the file's.
        var check: String {
            guard sent.streamed else { return "**not streamed**: decoded from its file at Send" }
            return sameText ? "yes" : "**no**"
        }
    }

    /// Records speech of each of `lengths` (seconds) once, into a notulad whose model is loaded beforehand.
    static func run(
        lengths: [Double], corpus: SpeechCorpus, notulad: String, home: URL, bus: Bus, library: VoskLibrary, modelPath: String
    ) async throws -> String {
        let sink = try await NullSink()
        let service = try await LaunchedService.startTranscribingKorean(notulad, home: home, bus: bus, modelPath: modelPath, sink: sink)
        try await service.pickLocaleAndWaitForModel("ko-KR")
        let model = try SpeechModel(library: library, path: modelPath)
        let lastUtterance = Latencies(
            try (0..<lastUtteranceRounds).map { _ throws(SpeechError) in
                try timed { () throws(SpeechError) in try model.transcribe(wavFile: corpus.lastUtterance.path) }.duration
            })

        var rows: [Row] = []
        for length in lengths {
            let speech = try corpus.speech(lasting: length)
            progress("recording \(fixed(speech.seconds, 1)) s of speech")
            let sent = try await service.dictate(speech, through: sink)
            let text = try await service.text(of: sent.path)
            let audio = try await service.audio(of: sent.path)
            let (whole, afterStop) = try timed { () throws(SpeechError) in try model.transcribe(wavFile: audio.file) }
            rows.append(Row(recorded: audio.seconds, sent: sent, afterStop: afterStop, sameText: text == whole.text))
        }
        try await service.stop()

        let table = rows.map { row in
            "| \(fixed(row.recorded, 1)) s | **\(secondsText(row.sent.latency))** | \(secondsText(row.afterStop)) | "
                + "\(secondsText(lastUtterance.median)) | \(fixed((row.sent.latency - lastUtterance.median).seconds, 2)) s | \(row.check) |"
        }
        return """
            ## Send → text: streamed vs transcribed after stop

            Each recording is Korean speech played in real time into notulad's source, then sent (Process); streamed \
            is the time from the Process call to the Processed signal, the model loaded beforehand. After stop is the \
            recorded file decoded whole in this process (SpeechModel.transcribe), what Send would cost without \
            streaming; last utterance is the closing sentence (\(fixed(corpus.lastUtterance.seconds, 1)) s) decoded \
            alone, median of \(lastUtteranceRounds). One recording of each length: single rounds.

            | recording | streamed | after stop | last utterance | streamed − last utterance | streamed, text = file's |
            |---|---|---|---|---|---|
            \(table.joined(separator: "\n"))
            """
    }
}
