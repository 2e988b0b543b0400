import Foundation
import Speech

/// The transcript Vosk's own Python package makes of a file, fed as its test_simple.py does.
public enum ReferenceTranscriber {
    private static let script = """
        import ctypes, json, sys, wave
        from vosk import KaldiRecognizer, Model, SetLogLevel
        SetLogLevel(-1)
        model = Model(sys.argv[1])
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
            data = wf.readframes(4000)
            if len(data) == 0:
                break
            if rec.AcceptWaveform(data):
                add(rec.Result())
        add(rec.FinalResult())
        print(json.dumps({"text": " ".join(texts), "words": words}))
        """

    private struct Output: Decodable {
        struct Entry: Decodable {
            let conf: Double
            let start: Double
            let end: Double
            let word: String
        }
        let text: String
        let words: [Entry]
    }

    /// The transcript of `wavFile` by the `python3` on PATH (the project's venv, with `vosk`), in a process of its
    /// own: decoding in this one would share `rand()` with whatever else decodes here meanwhile.
    public static func transcribe(wavFile: String, model: String) async throws -> Transcript {
        let json = try output(of: "python3", "-c", script, model, wavFile)
        let output = try JSONDecoder().decode(Output.self, from: Data(json.utf8))
        return Transcript(
            text: output.text,
            words: output.words.map { Word(start: $0.start, end: $0.end, word: $0.word, confidence: $0.conf) })
    }
}
