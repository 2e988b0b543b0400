import FoundationEssentials
import Glibc
import Recording

/// sherpa-onnx's decodings as requests to the decoding helper (`DecodingHelper`), and their answers in it: sherpa-onnx
/// ends the process on some models and aborts on others, so its recognisers run there and never in notulad.
extension DecodingHelper {
    /// Decodes an utterance's samples (16 kHz mono, 16-bit little-endian) with the model of `family` in `folder`, in
    /// the helper; the words' times count from its first sample.
    /// - Throws: `.cancelled` when the task is cancelled (a decoding sherpa-onnx does not end within `cancelGrace` ends
    ///   with its helper); `.recognitionFailed` saying why when the model does not load or the helper dies.
    func transcribe(utterance audio: [UInt8], family: SherpaRecognizer.Family, folder: String) async throws(SpeechError) -> Transcript {
        let request = DecodingRequest(engine: .sherpa, model: folder, family: family.rawValue, file: "", audio: Data(audio))
        return Transcript(try await answer(request))
    }

    /// Decodes `seconds` of quiet with the model of `family` in `folder`, in the helper, waiting on the calling thread:
    /// whether the model loads and runs. Throws as `transcribe(utterance:family:folder:)`.
    func transcribe(quiet seconds: Double, family: SherpaRecognizer.Family, folder: String) throws(SpeechError) -> Transcript {
        let audio = Data(count: 2 * Int(seconds * 16_000))
        return Transcript(
            try answer(DecodingRequest(engine: .sherpa, model: folder, family: family.rawValue, file: "", audio: audio), unless: { false }))
    }

    /// Decodes the WAV `file` with the model of `family` in `folder`, in the helper, utterance by utterance, waiting on
    /// the calling thread. Throws as `transcribe(utterance:family:folder:)`, `.cancelled` once `isCancelled` says so.
    func transcribe(file: String, family: SherpaRecognizer.Family, folder: String, unless isCancelled: () -> Bool) throws(SpeechError)
        -> Transcript
    {
        Transcript(try answer(DecodingRequest(engine: .sherpa, model: folder, family: family.rawValue, file: file), unless: isCancelled))
    }
}

extension Transcript {
    fileprivate init(_ answer: DecodingAnswer) {
        self.init(text: answer.text ?? "", words: answer.words ?? [])
    }
}

extension SherpaRecognizer {
    /// The threads a decoding uses: the two cores notulad is built for (`SherpaEngine.cost`).
    static let threads = 2

    /// The helper's answer to `request`: an utterance decoded whole, or a file cut into utterances (Parakeet and
    /// Moonshine are made for utterances, not a memo's minutes) where `detector` hears speech end, else where the level
    /// falls (`UtteranceCutter`), stopped by SIGUSR1 between them.
    func answer(_ request: DecodingRequest, cutting detector: VoiceDetector? = nil) throws(SpeechError) -> Transcript {
        // A test seam: each decoding this many seconds longer, and as deaf to SIGUSR1 as sherpa-onnx's own.
        let delay = DecodingHelperServer.testDelay("NOTULA_SHERPA_TEST_DELAY")
        func decoded(_ samples: ArraySlice<Float>) -> Transcript {
            if let delay {
                let until = ContinuousClock.now + .milliseconds(Int(delay * 1000))
                while ContinuousClock.now < until { usleep(10_000) }
            }
            return decode(Array(samples))
        }
        if let bytes = request.audio { return decoded(DecodingHelperServer.samples(in: bytes)[...]) }
        let samples = try DecodingHelperServer.samples(of: request.file)
        let spans = detector.map { Self.utterances(in: samples, by: $0) } ?? Self.utterancesByLevel(in: samples)
        var transcript = Transcript()
        for span in spans {
            if DecodingHelperServer.isCancelled() { throw .cancelled }
            // A little of the quiet around it, as the accurate pass pads Vosk's utterances.
            let first = max(0, Int((span.start - 0.2) * 16_000))
            let last = min(samples.count, Int((span.end + 0.3) * 16_000))
            guard first < last else { continue }
            transcript.append(decoded(samples[first..<last]).shifted(by: Double(first) / 16_000))
        }
        return transcript
    }

    private static func utterances(in samples: [Float], by detector: VoiceDetector) -> [(start: Double, end: Double)] {
        // A second at a time, as a recording comes: the detector's buffer holds one utterance, not a memo.
        let ended = stride(from: 0, to: samples.count, by: 16_000).flatMap { start in
            detector.append(Array(samples[start..<min(start + 16_000, samples.count)]))
        }
        return (ended + detector.finish()).map { ($0.start, $0.start + $0.duration) }
    }

    private static func utterancesByLevel(in samples: [Float]) -> [(start: Double, end: Double)] {
        var cutter = UtteranceCutter()
        let bytes = samples.withUnsafeBufferPointer { floats in
            [UInt8](unsafeUninitializedCapacity: floats.count * 2) { buffer, count in
                for (index, sample) in floats.enumerated() {
                    let value = UInt16(bitPattern: Int16(clamping: Int(sample * 32_768)))
                    buffer[2 * index] = UInt8(value & 0xff)
                    buffer[2 * index + 1] = UInt8(value >> 8)
                }
                count = floats.count * 2
            }
        }
        return cutter.take(bytes) + cutter.rest()
    }
}
