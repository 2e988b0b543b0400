import Foundation

/// `seconds` of a 440 Hz tone at a quarter of full scale (−15 dBFS), or of silence, as 16-bit little-endian bytes at
/// 16 kHz: speech and quiet to the level meter.
func toneAudio(_ seconds: Double, loud: Bool) -> [UInt8] {
    (0..<Int(seconds * 16_000)).flatMap { index -> [UInt8] in
        let sample = loud ? Int16(8_000 * sin(Double(index) * 2 * .pi * 440 / 16_000)) : 0
        return [UInt8(truncatingIfNeeded: sample), UInt8(truncatingIfNeeded: sample >> 8)]
    }
}
