import Foundation
import NotulaTestSupport

/// A real person's reading from `.build/real-speech` (`scripts/install-real-speech`): its samples and the words its
/// package says were read.
struct RealReading {
    let name: String
    let path: String
    /// 16 kHz mono, 16-bit little-endian.
    let samples: [UInt8]
    let said: [String]

    var seconds: Double { Double(samples.count) / 32_000 }

    /// The readings in `folder`, by name; none when it is missing.
    static func all(in folder: String) throws -> [RealReading] {
        let files = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter { $0.hasSuffix(".wav") }.sorted()
        return try files.map { file in
            let path = folder + "/" + file
            let text = try String(contentsOfFile: path.replacingOccurrences(of: ".wav", with: ".txt"), encoding: .utf8)
            return RealReading(name: file, path: path, samples: try rawSamples(of: path), said: WordErrorRate.words(text))
        }
    }
}

/// The samples of the audio file `file` as 16 kHz mono, 16-bit little-endian, through sox.
func rawSamples(of file: String) throws -> [UInt8] {
    let raw = FileManager.default.temporaryDirectory.appendingPathComponent("notula-bench-\(UUID().uuidString).raw").path
    defer { try? FileManager.default.removeItem(atPath: raw) }
    try output(of: "sox", file, "-r", "16000", "-c", "1", "-b", "16", "-e", "signed-integer", "-t", "raw", raw)
    return try [UInt8](Data(contentsOf: URL(fileURLWithPath: raw)))
}
