import Foundation
import NotulaTestSupport

/// A recording and the words said in it, as `NAME.wav` beside `NAME.txt`: a real person's reading from
/// `.build/real-speech` (`scripts/install-real-speech`), or a clip of `.build/quiet-clips` (`scripts/make-quiet-clips`).
struct LabelledRecording {
    let name: String
    let path: String
    /// 16 kHz mono, 16-bit little-endian.
    let samples: [UInt8]
    let said: [String]

    var seconds: Double { Double(samples.count) / 32_000 }

    /// The samples of `span` (seconds), as far as the recording goes.
    func samples(of span: (start: Double, end: Double)) -> [UInt8] {
        let from = min(samples.count, Int(span.start * 16_000) * 2)
        let to = min(samples.count, max(from, Int(span.end * 16_000) * 2))
        return Array(samples[from..<to])
    }

    /// The recordings in `folder`, by name; none when it is missing.
    static func all(in folder: String) throws -> [LabelledRecording] {
        let files = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter { $0.hasSuffix(".wav") }.sorted()
        return try files.map { file in
            let path = folder + "/" + file
            let text = try String(contentsOfFile: path.replacingOccurrences(of: ".wav", with: ".txt"), encoding: .utf8)
            return LabelledRecording(name: file, path: path, samples: try rawSamples(of: path), said: WordErrorRate.words(text))
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
