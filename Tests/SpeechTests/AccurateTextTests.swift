import Recording
import TestPasses
import Testing

@testable import Speech

/// What the accurate pass makes of its utterances' text: Whisper's where it wrote one, and which model a memo says
/// wrote each.
@Suite(.tags(.speech)) struct AccurateTextTests {
    /// An utterance of `text`, its words a second each from `start`.
    private func utterance(_ text: String, at start: Double, model: String = "") -> Transcript {
        let words = text.split(separator: " ").enumerated().map { index, word in
            Word(start: start + Double(index), end: start + Double(index) + 0.9, word: String(word), confidence: 1)
        }
        return Transcript(text: text, words: words, model: model)
    }

    private let vosk = Transcript(text: "vosk heard this", model: "vosk-model-small-en-us-0.15")

    @Test func aMemoPartlyWhisperSaysWhichModelWroteEachUtterance() {
        let utterances = [
            AccuratePass.Utterance(vosk: utterance("a patient", at: 0), whisper: utterance("The patient", at: 0)),
            AccuratePass.Utterance(vosk: utterance("has pain", at: 3), whisper: nil),
            AccuratePass.Utterance(vosk: utterance("", at: 6), whisper: nil),
        ]
        let text = AccuratePass.composed(utterances, vosk: vosk, model: "ggml-tiny.en")
        #expect(text.text == "The patient has pain" && text.model == "ggml-tiny.en")
        #expect(
            text.utteranceModels == [
                UtteranceModel(start: 0, end: 1.9, model: "ggml-tiny.en"),
                UtteranceModel(start: 3, end: 4.9, model: "vosk-model-small-en-us-0.15"),
            ])
    }

    @Test func aMemoAllWhispersOrAllVosksNamesItsOneModelOnly() {
        let whispered = AccuratePass.composed(
            [AccuratePass.Utterance(vosk: utterance("a patient", at: 0), whisper: utterance("The patient", at: 0))], vosk: vosk,
            model: "ggml-tiny.en")
        #expect(whispered.utteranceModels.isEmpty && whispered.model == "ggml-tiny.en" && whispered.text == "The patient")
        let unwritten = AccuratePass.composed(
            [AccuratePass.Utterance(vosk: utterance("a patient", at: 0), whisper: nil)], vosk: vosk, model: "ggml-tiny.en")
        #expect(unwritten == vosk)
    }
}
