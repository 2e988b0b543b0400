import Foundation
import Recording
import Speech

/// The transcript Vosk's own Python package makes of a file, fed as its test_simple.py does but in
/// `BlockRecognition`'s blocks, words on, `rand()` seeded as `BlockRecognition` seeds it. The tests compare with it; `make bench` times it.
public enum ReferenceTranscriber {
    /// Times the model's load and, apart, the decoding: from opening the file to the final result, the
    /// recognizer's creation included, as `SpeechModel.transcribe(wavFile:)` is timed.
    private static let script = """
        import ctypes, json, sys, time, wave
        from vosk import KaldiRecognizer, Model, SetLogLevel
        SetLogLevel(-1)
        started = time.perf_counter()
        model = Model(sys.argv[1])
        loaded = time.perf_counter()
        wf = wave.open(sys.argv[2], "rb")
        ctypes.CDLL(None).srand(1)  # the dither's seed, as BlockRecognition seeds it
        rec = KaldiRecognizer(model, 16000)
        rec.SetWords(True)
        texts, words = [], []
        def add(result):
            utterance = json.loads(result)
            if utterance.get("text"):
                texts.append(utterance["text"])
            words.extend(utterance.get("result", []))
        while True:
            data = wf.readframes(int(sys.argv[3]))
            if len(data) == 0:
                break
            if rec.AcceptWaveform(data):
                add(rec.Result())
        add(rec.FinalResult())
        decoded = time.perf_counter()
        print(json.dumps({"load": loaded - started, "decode": decoded - loaded, "text": " ".join(texts), "words": words}))
        """

    /// A decoding by the reference, and what it took.
    public struct Decoding: Sendable {
        public let transcript: Transcript
        public let load: Duration
        public let decode: Duration
    }

    private struct Output: Decodable {
        struct Entry: Decodable {
            let conf: Double
            let start: Double
            let end: Double
            let word: String
        }
        let load: Double
        let decode: Double
        let text: String
        let words: [Entry]
    }

    /// The transcript of `wavFile` by the `python3` on PATH (the project's venv, with `vosk`).
    public static func transcribe(wavFile: String, model: String) async throws -> Transcript {
        try decode(wavFile: wavFile, model: model).transcript
    }

    /// Decodes `wavFile` in a process of its own: decoding in this one would share `rand()` with whatever else
    /// decodes here meanwhile.
    public static func decode(wavFile: String, model: String) throws -> Decoding {
        let json = try output(of: "python3", "-c", script, model, wavFile, String(BlockRecognition.blockSamples))
        let output = try JSONDecoder().decode(Output.self, from: Data(json.utf8))
        return Decoding(
            transcript: Transcript(
                text: output.text,
                words: output.words.map { Word(start: $0.start, end: $0.end, word: $0.word, confidence: $0.conf) }),
            load: .seconds(output.load), decode: .seconds(output.decode))
    }
}
