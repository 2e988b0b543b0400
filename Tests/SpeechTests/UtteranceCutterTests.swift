import Foundation
import TestPasses
import Testing

@testable import Speech

/// Where Whisper alone ends an utterance: after 0.6 s quieter than −45 dBFS that follows speech.
@Suite(.tags(.speech)) struct UtteranceCutterTests {
    @Test func speechThenSixTenthsOfASecondOfQuietEndsAnUtterance() {
        var cutter = UtteranceCutter()
        #expect(cutter.take(toneAudio(1, loud: false)).isEmpty, "quiet alone is no utterance")
        #expect(cutter.take(toneAudio(2, loud: true) + toneAudio(0.5, loud: false)).isEmpty, "0.5 s of quiet is a pause")
        let ended = cutter.take(toneAudio(0.2, loud: false))
        #expect(ended.count == 1)
        #expect(abs((ended.first?.start ?? 0) - 1) < 0.03 && abs((ended.first?.end ?? 0) - 3) < 0.03, "\(ended)")
        #expect(cutter.rest().isEmpty)
    }

    @Test func aLongUtteranceIsCutAt25SecondsAndTheRestIsTheLastOne() {
        var cutter = UtteranceCutter()
        let ended = cutter.take(toneAudio(30, loud: true))
        #expect(ended.count == 1 && abs((ended.first.map { $0.end - $0.start } ?? 0) - 25) < 0.03, "\(ended)")
        let rest = cutter.rest()
        #expect(rest.count == 1 && abs((rest.first?.end ?? 0) - 30) < 0.03, "\(rest)")
    }
}
