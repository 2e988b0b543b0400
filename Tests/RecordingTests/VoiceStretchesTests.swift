import Foundation
import Recording
import Testing

/// What `OpenAudio("vad")` sends: the stretches of speech, the quiet between them trimmed.
@Suite("Stretches of speech, silence trimmed")
struct VoiceStretchesTests {
    private let margin = VoiceStretches.margin

    /// Feeds `bytes` in pieces of `piece` bytes; the frames the samples ended, then the one `finish` flushes.
    private func stretches(_ bytes: [UInt8], piece: Int = 640, silence: Double = 0.5) -> (taken: [VoiceFrame], finished: VoiceFrame?) {
        var stretches = VoiceStretches(threshold: -40, silenceSeconds: silence)
        var taken: [VoiceFrame] = []
        for offset in stride(from: 0, to: bytes.count, by: piece) {
            taken += Array(bytes[offset..<min(offset + piece, bytes.count)]).withUnsafeBytes { stretches.take($0) }
        }
        return (taken, stretches.finish())
    }

    private func decoded(_ bytes: [UInt8]) -> [Int16] {
        stride(from: 0, to: bytes.count - 1, by: 2).map { Int16(bitPattern: UInt16(bytes[$0]) | UInt16(bytes[$0 + 1]) << 8) }
    }

    @Test func aStretchIsItsSpeechWithAFifthOfASecondEachSideAndEndsAfterTheQuiet() {
        let spoken = samples(seconds: 0.5, level: -20)
        let audio = samples(seconds: 1, level: nil) + spoken + samples(seconds: 2, level: nil)
        let (taken, finished) = stretches(audio)
        #expect(taken.count == 1, "ended by the quiet, not by the end: \(taken.map(\.start))")
        #expect(finished == nil)
        let stretch = taken[0]
        #expect(stretch.start == UInt64(16_000 - margin))
        #expect(stretch.samples == decoded(Array(audio[(16_000 - margin) * 2..<(24_000 + margin) * 2])))
    }

    @Test func stretchesShareNoSampleAndEachStartsWhereItIsInTheRecording() {
        let audio =
            samples(seconds: 0.5, level: -20) + samples(seconds: 0.7, level: nil) + samples(seconds: 0.4, level: -20)
            + samples(seconds: 0.3, level: nil) + samples(seconds: 0.4, level: -20)
        let (taken, finished) = stretches(audio, silence: 0.25)
        let all = taken + [finished].compactMap { $0 }
        // The quiet ends a stretch after 13 frames (0.26 s); the 0.3 s quiet leaves the third stretch the 0.1 s that
        // the second did not send.
        #expect(all.map(\.start) == [0, UInt64(8_000 + 11_200 - margin), UInt64(19_200 + 6_400 + 4_800 - 1_600)])
        for (one, next) in zip(all, all.dropFirst()) {
            #expect(one.start + UInt64(one.samples.count) <= next.start, "overlap")
        }
        #expect(all.allSatisfy { decoded(Array(audio[Int($0.start) * 2..<(Int($0.start) + $0.samples.count) * 2])) == $0.samples })
    }

    @Test func theStretchUnderWayIsFlushedWhenTheRecordingIsSent() {
        let audio = samples(seconds: 0.3, level: nil) + samples(seconds: 1, level: -20)
        let (taken, finished) = stretches(audio)
        #expect(taken.isEmpty)
        #expect(finished?.start == UInt64(4_800 - margin))
        #expect(finished?.samples.count == margin + 16_000)
    }

    @Test func quietOnlyGivesNothingAndADiscardGivesAnEmptyFrameAtItsPosition() {
        var stretches = VoiceStretches(threshold: -40, silenceSeconds: 0.5)
        let quiet = samples(seconds: 2, level: -60)
        #expect(quiet.withUnsafeBytes { stretches.take($0) }.isEmpty)
        #expect(stretches.drop() == VoiceFrame(start: 32_000, samples: []))
        #expect(stretches.finish() == nil, "the next recording starts empty")
    }

    @Test func aLongStretchComesInPiecesOfThirtySeconds() {
        let (taken, finished) = stretches(samples(seconds: 31, level: -20) + samples(seconds: 1, level: nil), piece: 32_000)
        #expect(taken.map(\.start) == [0, UInt64(VoiceStretches.longest)])
        #expect(taken.first?.samples.count == VoiceStretches.longest)
        #expect(taken.last?.samples.count == 16_000 + margin)
        #expect(finished == nil)
    }

    @Test func theSameStretchesWhateverThePiecesTheSamplesCameIn() {
        let audio =
            samples(seconds: 0.4, level: nil) + samples(seconds: 0.6, level: -25) + samples(seconds: 0.7, level: nil)
            + samples(seconds: 0.2, level: -25)
        let whole = stretches(audio, piece: audio.count)
        let odd = stretches(audio, piece: 14)
        #expect(whole.taken == odd.taken && whole.finished == odd.finished)
        #expect(!whole.taken.isEmpty && whole.finished != nil)
    }

    @Test func aFrameIsItsLengthAndStartLittleEndianThenItsSamples() {
        let frame = VoiceFrame(start: 0x0102_0304_0506_0708, samples: [1, -2])
        #expect(frame.encoded == [2, 0, 0, 0, 8, 7, 6, 5, 4, 3, 2, 1, 1, 0, 0xFE, 0xFF])
    }
}
