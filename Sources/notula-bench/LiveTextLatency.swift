import DBus
import Foundation
import NotulaContract
import NotulaTestSupport

/// How soon the words being spoken reach a `WatchText` reader, against the floor of Vosk's own decoding delay, and
/// what following the live text costs notulad.
///
/// A word's latency is from its end in the recording (its end time in the memo's words, on the clock of
/// `TimerAnchor`, CLOCK_MONOTONIC) to the first line of the reader that holds it (the utterances so far and the
/// current guess), from its start on and within 3 places of its place in the memo. The floor is Vosk's Python
/// package fed the memo's WAV in 50 ms chunks as fast as it decodes, a word's latency there the audio fed when a
/// guess first held it; beside it, in the 250 ms chunks Vosk's examples read.
enum LiveTextLatency {
    static func run(corpus: SpeechCorpus, seconds: Double, notulad: String, home: URL, bus: Bus, modelPath: String) async throws
        -> String
    {
        let sink = try await NullSink()
        let service = try await LaunchedService.startTranscribingKorean(notulad, home: home, bus: bus, modelPath: modelPath, sink: sink)
        try await service.pickLocaleAndWaitForModel("ko-KR")
        let speech = try corpus.speech(lasting: seconds)

        progress("dictating \(fixed(speech.seconds, 1)) s with nobody following the words")
        let before = sample(service.pid).cpuNanoseconds
        _ = try await service.dictate(speech, through: sink)
        let alone = sample(service.pid).cpuNanoseconds - before

        progress("dictating it again with two readers of the words")
        // Read while spoken: a line is stamped when read.
        let (timed, other) = (try await Follower.watching(bus), try await Follower.watching(bus))
        let reading = (Task { await timed.linesUntilEnd() }, Task { await other.linesUntilEnd() })
        let anchor = Task { try await timerAnchorOfTheNextRecording(bus) }
        let again = sample(service.pid).cpuNanoseconds
        let sent = try await service.dictate(speech, through: sink)
        let followed = sample(service.pid).cpuNanoseconds - again
        let lines = await reading.0.value
        _ = await reading.1.value
        let zero = try await anchor.value
        let words = try await memoWords(sent.path, bus: bus)
        let audio = try await service.audio(of: sent.path)
        try await service.stop()

        let ours = latencies(of: words, seenAt: lines.map { (Double($0.monotonicMicroseconds - zero) / 1e6, $0.line) })
        let floor = try floorLatencies(of: words, wav: audio.file, modelPath: modelPath, chunkSamples: 800)
        let blocks = try floorLatencies(of: words, wav: audio.file, modelPath: modelPath, chunkSamples: 4000)
        func row(_ name: String, _ values: [Double]) -> String {
            "| \(name) | \(fixed(median(values), 2)) s | \(fixed(percentile(95, values), 2)) s | \(values.count) of \(words.count) |"
        }
        return """
            ## Live text: from a spoken word to a reader

            \(fixed(audio.seconds, 1)) s of Korean speech played in real time into notulad's source, followed by two \
            `WatchText` readers; a word counts once a line holds it (the utterances so far and the current guess), \
            from its start on and within 3 places of its place in the memo. Words never held so are left out.

            | decoded by | median | p95 | words |
            |---|---|---|---|
            \(row("notulad, to a reader (50 ms blocks)", ours))
            \(row("floor: Vosk's Python package, 50 ms chunks", floor))
            \(row("Vosk's Python package, 250 ms chunks as its examples", blocks))

            notulad − floor: \(fixed(median(ours) - median(floor), 2)) s at the median, \
            \(fixed(percentile(95, ours) - percentile(95, floor), 2)) s at the p95.

            notulad's CPU over the recording: \(fixed(Double(alone) / 1e9, 2)) s with nobody following the words, \
            \(fixed(Double(followed) / 1e9, 2)) s with two readers: \
            **\(fixed((Double(followed) / Double(max(alone, 1)) - 1) * 100, 1)) %** (ticks of 10 ms; one run each).
            """
    }

    /// The memo's words and their end times, in recording seconds.
    private static func memoWords(_ memo: ObjectPath, bus: Bus) async throws -> [SpokenWord] {
        let reply = try await bus.call(
            MethodCall(
                destination: NotulaBus.name, path: memo, interface: NotulaBus.memoInterface,
                member: NotulaBus.Memo.Method.getTranscript.rawValue))
        return try reply.argument(1, as: [DBusStruct<Double, Double, String, Double>].self).map {
            SpokenWord(word: $0.fields.2, start: $0.fields.0, end: $0.fields.1)
        }
    }

    /// The recorder's `TimerAnchor` once the next recording's timer runs.
    private static func timerAnchorOfTheNextRecording(_ bus: Bus) async throws -> Int64 {
        let signals = try await bus.signals(
            matching: MatchRule(sender: NotulaBus.name, path: NotulaBus.recorderPath, interface: "org.freedesktop.DBus.Properties"))
        // The timer starts with the first samples, after State becomes recording: asked at each change until it runs.
        for await _ in signals {
            let reply = try await bus.call(
                MethodCall(
                    destination: NotulaBus.name, path: NotulaBus.recorderPath, interface: "org.freedesktop.DBus.Properties",
                    member: "Get", arguments: [.string(NotulaBus.recorderInterface.rawValue), .string("TimerAnchor")]))
            guard case .int64(let anchor) = try reply.argument(0, as: Variant.self).value else { break }
            if anchor > 0 { return anchor }
        }
        throw NoTimerAnchor()
    }

    /// For each word, when (in recording seconds) a line first held it, less its end.
    static func latencies(of words: [SpokenWord], seenAt lines: [(Double, LiveTextLine)]) -> [Double] {
        var ended: [String] = []
        let held: [(Double, [String])] = lines.map { time, line in
            let tokens = (line.text ?? "").split(separator: " ").map(String.init)
            if line.kind == "final" { ended += tokens }
            return (time, line.kind == "final" ? ended : ended + tokens)
        }
        return firstHeld(words, in: held)
    }

    /// The words' latencies where `held` says, at each time, which words were held: word i is held by a line from
    /// its start on that has it within `slack` places of i (a guess may differ a little from the memo's words).
    private static func firstHeld(_ words: [SpokenWord], in held: [(Double, [String])]) -> [Double] {
        let slack = 3
        return words.enumerated().compactMap { index, spoken in
            held.first { time, tokens in
                time >= spoken.start
                    && tokens.indices.clamped(to: max(0, index - slack)..<(index + slack + 1)).contains { tokens[$0] == spoken.word }
            }.map { $0.0 - spoken.end }
        }
    }

    /// The floor: the reference package fed `wav` in chunks of `chunkSamples`, each guess timed by the audio fed.
    private static func floorLatencies(of words: [SpokenWord], wav: String, modelPath: String, chunkSamples: Int) throws
        -> [Double]
    {
        let script = """
            import ctypes, json, sys, wave
            from vosk import KaldiRecognizer, Model, SetLogLevel
            SetLogLevel(-1)
            model = Model(sys.argv[1])
            wf = wave.open(sys.argv[2], "rb")
            chunk = int(sys.argv[3])
            ctypes.CDLL(None).srand(1)
            rec = KaldiRecognizer(model, 16000)
            fed, ended, held = 0, [], []
            while True:
                data = wf.readframes(chunk)
                if len(data) == 0:
                    break
                fed += len(data) // 2
                if rec.AcceptWaveform(data):
                    ended += json.loads(rec.Result()).get("text", "").split()
                    held.append([fed / 16000, ended])
                else:
                    held.append([fed / 16000, ended + json.loads(rec.PartialResult()).get("partial", "").split()])
            held.append([fed / 16000, ended + json.loads(rec.FinalResult()).get("text", "").split()])
            print(json.dumps(held))
            """
        let json = try output(of: "python3", "-c", script, modelPath, wav, String(chunkSamples))
        let decoded = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [[Any]] ?? []
        let held = decoded.compactMap { entry -> (Double, [String])? in
            guard entry.count == 2, let time = entry[0] as? Double, let tokens = entry[1] as? [String] else { return nil }
            return (time, tokens)
        }
        return firstHeld(words, in: held)
    }

}

/// A word of the memo, with its start and end in the recording.
struct SpokenWord {
    let word: String
    let start: Double
    let end: Double
}

/// A `WatchText` reader on the bench's connection, each line stamped with CLOCK_MONOTONIC when it was read.
private struct Follower {
    struct Stamped: Sendable {
        let monotonicMicroseconds: Int64
        let line: LiveTextLine
    }

    let reader: LiveTextReader

    static func watching(_ bus: Bus) async throws -> Follower {
        let reply = try await bus.call(
            MethodCall(
                destination: NotulaBus.name, path: NotulaBus.recorderPath, interface: NotulaBus.recorderInterface,
                member: NotulaBus.Recorder.Method.watchText.rawValue))
        guard case .unixFD(let received)? = reply.body.first else { throw NoPipe() }
        return Follower(reader: LiveTextReader(received))
    }

    /// The lines up to the end of the recording, then the pipe is closed.
    func linesUntilEnd() async -> [Stamped] {
        var read: [Stamped] = []
        for await line in reader.lines {
            read.append(Stamped(monotonicMicroseconds: monotonicMicroseconds(), line: line))
            if line.kind == "end" { break }
        }
        close(reader.descriptor)
        return read
    }
}

private struct NoTimerAnchor: Error {}
private struct NoPipe: Error {}
