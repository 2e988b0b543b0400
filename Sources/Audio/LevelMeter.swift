import Glibc
import Recording

/// The RMS level of the most recent ~100 ms of 16-bit samples, in dBFS.
struct LevelMeter {
    /// What the meter reads for digital silence, and when nothing is captured.
    static let silence = -160.0

    private var window = [Int16](repeating: 0, count: RecordingFormat.sampleRate / 10)
    private var next = 0

    /// Adds little-endian signed 16-bit samples; a trailing odd byte is ignored.
    mutating func add(_ pcm: UnsafeRawBufferPointer) {
        pcm.forEachSample { sample in
            window[next] = sample
            next = (next + 1) % window.count
        }
    }

    var dBFS: Double {
        let sumOfSquares = window.reduce(0.0) { $0 + Double($1) * Double($1) }
        guard sumOfSquares > 0 else { return Self.silence }
        let rms = (sumOfSquares / Double(window.count)).squareRoot()
        return max(Self.silence, 20 * log10(rms / 32768))
    }

    mutating func reset() {
        self = LevelMeter()
    }
}
