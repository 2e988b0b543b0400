import Foundation
import Recording
import Testing

/// 16 kHz mono samples as the capture hands them: a tone at `level` dBFS (a silence at nil) for `seconds`.
func samples(seconds: Double, level: Double?) -> [UInt8] {
    let count = Int(seconds * 16_000)
    let amplitude = level.map { pow(10, $0 / 20) * 32_767 * 2.0.squareRoot() } ?? 0
    return (0..<count).flatMap { index -> [UInt8] in
        let value = Int16(clamping: Int((amplitude * sin(2 * Double.pi * 440 * Double(index) / 16_000)).rounded()))
        return withUnsafeBytes(of: value.littleEndian) { Array($0) }
    }
}

/// Feeds `bytes` in the capture's 100 ms blocks; the offsets, in seconds, where the detector said quiet.
private func quietAt(_ detector: inout SilenceDetector, _ bytes: [UInt8], silence: Double, startingAt start: Double = 0) -> [Double] {
    stride(from: 0, to: bytes.count, by: 3_200).compactMap { offset in
        let block = bytes[offset..<min(offset + 3_200, bytes.count)]
        let quiet = Array(block).withUnsafeBytes { detector.hear($0, silence: silence) }
        return quiet ? start + Double(offset + block.count) / 32_000 : nil
    }
}

@Suite("Silence after speech ends a recording")
struct SilenceDetectorTests {
    @Test func quietAfterSpeechIsToldOnceItLastedTheSilence() {
        var detector = SilenceDetector()
        #expect(quietAt(&detector, samples(seconds: 3, level: nil), silence: 2).isEmpty, "no speech yet: nothing ends")
        #expect(quietAt(&detector, samples(seconds: 1, level: -20), silence: 2, startingAt: 3).isEmpty)
        let quiet = quietAt(&detector, samples(seconds: 3, level: nil), silence: 2, startingAt: 4)
        #expect(quiet.first == 6.0, "two seconds after the speech ended: \(quiet)")
    }

    @Test func speechAgainStartsTheCountAgain() {
        var detector = SilenceDetector()
        _ = quietAt(&detector, samples(seconds: 1, level: -20), silence: 2)
        #expect(quietAt(&detector, samples(seconds: 1.5, level: nil), silence: 2, startingAt: 1).isEmpty)
        #expect(quietAt(&detector, samples(seconds: 0.5, level: -30), silence: 2, startingAt: 2.5).isEmpty)
        #expect(quietAt(&detector, samples(seconds: 1.5, level: nil), silence: 2, startingAt: 3).isEmpty)
        #expect(quietAt(&detector, samples(seconds: 1, level: nil), silence: 2, startingAt: 4.5).first == 5.0)
    }

    @Test func aQuietRoomIsNotSpeech() {
        var detector = SilenceDetector()
        #expect(quietAt(&detector, samples(seconds: 5, level: -60), silence: 1).isEmpty)
        #expect(!detector.heardSpeech)
        _ = quietAt(&detector, samples(seconds: 0.2, level: -45), silence: 1)
        #expect(detector.heardSpeech, "-45 dBFS is speech")
        let quiet = quietAt(&detector, samples(seconds: 2, level: -60), silence: 1, startingAt: 5.2)
        #expect(quiet.first.map { abs($0 - 6.2) < 1e-9 } == true, "a second after the speech: \(quiet)")
    }

    /// 0 is off; a length set while the quiet goes on counts the quiet already heard.
    @Test func zeroSecondsIsOffAndALengthSetLaterTakesEffectAtOnce() {
        var detector = SilenceDetector()
        _ = quietAt(&detector, samples(seconds: 1, level: -20), silence: 0)
        #expect(quietAt(&detector, samples(seconds: 10, level: nil), silence: 0).isEmpty)
        #expect(quietAt(&detector, samples(seconds: 0.1, level: nil), silence: 5, startingAt: 11) == [11.1])
    }
}
