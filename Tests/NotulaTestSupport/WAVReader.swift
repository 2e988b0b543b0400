import Foundation

/// A PCM WAV file as a test inspects it.
public struct WAVReader {
    public let channels: Int
    public let sampleRate: Int
    public let bitsPerSample: Int
    public let declaredDataBytes: Int
    /// The RIFF chunk's size field, and the file's size.
    public let riffSize: Int
    public let fileSize: Int
    public let samples: [Int16]

    public init(path: String) throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        func integer(_ offset: Int, _ size: Int) -> Int {
            (0..<size).reduce(0) { $0 | Int(data[offset + $1]) << (8 * $1) }
        }
        guard data.count >= 44, data.prefix(4) == Data("RIFF".utf8), data[8..<12] == Data("WAVE".utf8),
            data[12..<16] == Data("fmt ".utf8), integer(20, 2) == 1, data[36..<40] == Data("data".utf8),
            integer(4, 4) == data.count - 8
        else { throw WAVError(reason: "not a canonical PCM WAV whose RIFF size matches the file") }
        channels = integer(22, 2)
        sampleRate = integer(24, 4)
        bitsPerSample = integer(34, 2)
        declaredDataBytes = integer(40, 4)
        riffSize = integer(4, 4)
        fileSize = data.count
        samples = stride(from: 44, to: data.count - 1, by: 2).map { Int16(bitPattern: UInt16(integer($0, 2))) }
    }

    /// The largest sample magnitude.
    public var peak: Int { samples.map { abs(Int($0)) }.max() ?? 0 }

    public var duration: Double { Double(samples.count) / Double(sampleRate) }

    /// RMS of each 100 ms window, in dBFS (−160 for digital silence).
    public var windowLevels: [Double] {
        let window = sampleRate / 10
        return stride(from: 0, to: samples.count, by: window).map { start in
            let slice = samples[start..<min(start + window, samples.count)]
            let power = slice.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(slice.count)
            return power == 0 ? -160 : 10 * log10(power / (32768.0 * 32768.0))
        }
    }
}

public struct WAVError: Error { public let reason: String }
