import Downloading
import Glibc
import Recording

/// Silero's voice detector in a helper of its own: `notulad --voice-helper SHERPA_LIBRARY SILERO_MODEL [SILENCE]` reads a
/// recording's samples (16 kHz mono, 16-bit little-endian) on its standard input and writes a line `START END`
/// (seconds from the first sample) for each utterance they end, after SILENCE seconds of quiet (0.1–30; 0.3 when
/// not given); at the end of its input, the one under way. Apart
/// from the decoding helper, so that utterances keep ending while a long one is decoded there.
public enum VoiceHelperServer {
    public static let argument = "--voice-helper"

    /// When `arguments` ask for the helper, hears its input to the end.
    /// - Returns: The exit status (1 when the detector does not load, saying why on standard error), or `nil` when the
    ///   command line is not the helper's: the program then goes on.
    public static func serve(_ arguments: [String]) -> Int32? {
        guard arguments.count == 4 || arguments.count == 5, arguments[1] == argument else { return nil }
        let silence = arguments.count == 5 ? Double(arguments[4]).map { min(30, max(0.1, $0)) } : VoiceDetector.utteranceSilence
        guard let silence else {
            Log.error("The voice helper's quiet is not a number of seconds: \(arguments[4])")
            return 64
        }
        ChildSpawn.limitAddressSpace(to: DecodingHelperServer.addressSpaceWithoutModel)
        let detector: VoiceDetector
        do throws(SpeechError) {
            let library = try SherpaLibrary.load(searchingFrom: [arguments[2]])
            detector = try VoiceDetector(
                library: library, model: arguments[3], shortestSilence: silence, longestSpeech: UtteranceCutter.longestSeconds)
        } catch {
            Log.error("The voice helper cannot hear: \(error.message)")
            return 1
        }
        var samples = LittleEndianSamples()
        var block = [UInt8](repeating: 0, count: 3_200)
        while true {
            let count = block.withUnsafeMutableBytes { read(STDIN_FILENO, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            guard tell(detector.append(samples.floats(of: block[..<count]))) else { return 1 }
        }
        return tell(detector.finish()) ? 0 : 1
    }

    private static func tell(_ segments: [VoiceDetector.Segment]) -> Bool {
        guard !segments.isEmpty else { return true }
        let lines = segments.map { "\(formatted($0.start)) \(formatted($0.start + $0.duration))\n" }.joined()
        return DocumentFetcher.writeStandardOutput(Array(lines.utf8))
    }

    /// Seconds to the millisecond.
    private static func formatted(_ seconds: Double) -> String {
        let milliseconds = Int((seconds * 1000).rounded())
        let fraction = String(milliseconds % 1000)
        return "\(milliseconds / 1000).\(String(repeating: "0", count: 3 - fraction.count))\(fraction)"
    }
}
