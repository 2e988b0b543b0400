import Models
import Recording
import Synchronization
import TestPasses
import Testing

@testable import Speech

/// The utterance under way decoded ahead at the speaker's pauses: at Send only what was said after the last pause is
/// left to decode. The decoder is a double at the engine's seam that writes `piece1`, `piece2`… and keeps each request.
@Suite(.tags(.speech), .timeLimit(.minutes(1))) struct DecodingAheadTests {
    /// Writes one word per request, `piece` and the request's number, and keeps what it was asked.
    final class CountingDecoder: UtteranceDecoding {
        struct Request: Sendable {
            let seconds: Double
            let prompt: String
            let awaited: Bool
        }

        let installed = InstalledModel(locale: "en-US", path: "/nowhere/ggml-tiny.en.bin", name: "ggml-tiny.en")
        private let asked = Mutex<[Request]>([])
        /// Each request as it comes, by its number.
        let arrivals: AsyncStream<Int>
        private let arrived: AsyncStream<Int>.Continuation

        init() {
            (arrivals, arrived) = AsyncStream.makeStream()
        }

        var requests: [Request] { asked.withLock { $0 } }

        func transcribe(utterance audio: [UInt8], after previous: String, awaited: Bool) async throws(SpeechError) -> Transcript {
            let number = asked.withLock { asked in
                asked.append(Request(seconds: Double(audio.count / 2) / 16_000, prompt: previous, awaited: awaited))
                return asked.count
            }
            arrived.yield(number)
            return Transcript(text: "piece\(number)", words: [Word(start: 0, end: 0.5, word: "piece\(number)", confidence: 1)])
        }
    }

    /// A recording Whisper follows alone, its utterances ended by the level meter (0.6 s of quiet), fed `parts` in
    /// 50 ms blocks and sent at its end: the memo's text. After each part but the last comes the decoder's next request,
    /// as the speaker's next words come while the pause's piece is decoded.
    private func sent(_ parts: [[UInt8]], decodedBy decoder: CountingDecoder) async -> Transcript {
        var live = LiveTranscription(recording: RecordingID("ahead"), locale: "en-US", model: "ggml-tiny.en", recognition: nil)
        live.accurate = (AccuratePass(model: decoder, revised: { _, _ in }), UtteranceAudio())
        live.cutter = UtteranceCutter()
        var requests = decoder.arrivals.makeAsyncIterator()
        for (index, audio) in parts.enumerated() {
            stride(from: 0, to: audio.count, by: 1_600).forEach { live.append(Array(audio[$0..<min(audio.count, $0 + 1_600)])) }
            if index < parts.count - 1 { _ = await requests.next() }
        }
        guard let streamed = live.finish(), let pass = streamed.accurate else { return Transcript() }
        return await pass.finish(within: .seconds(30), vosk: streamed.transcript)
    }

    @Test func speechThatPausedBeforeSendIsWrittenFromItsPiecesAndNothingIsDecodedAgain() async {
        let decoder = CountingDecoder()
        let speech = [
            toneAudio(0.5, loud: false) + toneAudio(1, loud: true) + toneAudio(0.4, loud: false),
            toneAudio(1, loud: true) + toneAudio(0.5, loud: false),
        ]
        let memo = await sent(speech, decodedBy: decoder)
        let requests = decoder.requests
        // Without decoding ahead: one request of the whole utterance, 3.3 s with its lead and padding, after Send.
        #expect(memo.text == "piece1 piece2", "\(requests)")
        #expect(requests.count == 2 && requests.allSatisfy { $0.seconds < 1.7 && $0.awaited }, "\(requests)")
        #expect(requests.last?.prompt == "piece1", "a piece is prompted with the text before it")
        #expect(memo.words.map(\.start).isSorted, "each piece's words are placed where it was said: \(memo.words)")
    }

    @Test func speechGoingOnAtSendLeavesOnlyWhatFollowedTheLastPause() async {
        let decoder = CountingDecoder()
        let speech = [toneAudio(0.5, loud: false) + toneAudio(1.5, loud: true) + toneAudio(0.4, loud: false), toneAudio(1, loud: true)]
        let memo = await sent(speech, decodedBy: decoder)
        let requests = decoder.requests
        #expect(memo.text == "piece1 piece2", "\(requests)")
        // The second request is what followed the pause: its 1 s of tone and the pause's last 0.15 s.
        #expect(requests.count == 2 && abs((requests.last?.seconds ?? 0) - 1.15) < 0.1, "\(requests)")
    }

    @Test func anUtteranceGoingOnPastItsLastPieceIsDecodedWhole() async {
        let decoder = CountingDecoder()
        let pass = AccuratePass(model: decoder, revised: { _, _ in })
        let audio = UtteranceAudio()
        audio.append(toneAudio(0.5, loud: false) + toneAudio(1, loud: true) + toneAudio(0.4, loud: false) + toneAudio(1, loud: true))
        pass.paused((start: 0.5, end: 1.5), of: audio)
        pass.sent()
        // Vosk's words go on to 2.9 s, where the level meter heard no second pause.
        pass.add(Transcript(text: "vosk", words: []), from: 0.5, to: 2.9, of: audio)
        let memo = await pass.finish(within: .seconds(30), vosk: Transcript(text: "vosk"))
        let requests = decoder.requests
        // The piece: 0.3 s before the speech to 0.25 s after it; then the whole utterance, its lead clipped at 0 s.
        #expect(memo.text == "piece2", "\(requests)")
        #expect(requests.count == 2 && abs(requests[0].seconds - 1.55) < 0.05 && abs(requests[1].seconds - 2.9) < 0.05, "\(requests)")
    }
}

extension Array where Element == Double {
    fileprivate var isSorted: Bool { zip(self, dropFirst()).allSatisfy { $0 <= $1 } }
}
