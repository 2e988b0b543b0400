import Foundation
import NotulaTestSupport
import Speech

/// Vosk's own Python package (`python3` on PATH: `make bench` puts the project's venv first), decoding a file as
/// its test_simple.py does and as Tests/SpeechTests' ReferenceTranscriber drives it: 4000 frames at a time, words
/// on, `rand()` seeded as `BlockRecognition` seeds it. One process per decoding, which times itself.
struct ReferenceDecoder {
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
        ctypes.CDLL(None).srand(1)
        rec = KaldiRecognizer(model, 16000)
        rec.SetWords(True)
        texts, words = [], []
        def add(result):
            utterance = json.loads(result)
            if utterance.get("text"):
                texts.append(utterance["text"])
            words.extend(utterance.get("result", []))
        while True:
            data = wf.readframes(4000)
            if len(data) == 0:
                break
            if rec.AcceptWaveform(data):
                add(rec.Result())
        add(rec.FinalResult())
        decoded = time.perf_counter()
        print(json.dumps({"load": loaded - started, "decode": decoded - loaded, "text": " ".join(texts), "words": words}))
        """

    private let scriptPath: String
    private let modelPath: String

    /// Writes the script into `folder`.
    init(modelPath: String, folder: URL) throws {
        scriptPath = folder.appendingPathComponent("reference.py").path
        self.modelPath = modelPath
        try Self.script.write(toFile: scriptPath, atomically: true, encoding: .utf8)
    }

    struct Decoding {
        let load: Duration
        let decode: Duration
        let transcript: Transcript
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

    func decode(_ file: AudioFile) throws -> Decoding {
        let json = try output(of: "python3", scriptPath, modelPath, file.path)
        let output = try JSONDecoder().decode(Output.self, from: Data(json.utf8))
        return Decoding(
            load: .seconds(output.load), decode: .seconds(output.decode),
            transcript: Transcript(
                text: output.text,
                words: output.words.map { Word(start: $0.start, end: $0.end, word: $0.word, confidence: $0.conf) }))
    }
}
