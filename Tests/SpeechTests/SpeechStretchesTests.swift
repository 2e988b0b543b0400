import Recording
import Testing

@testable import Speech

/// The live model's words kept where Silero heard speech.
@Suite("Words kept where speech was heard")
struct SpeechStretchesTests {
    private func word(_ text: String, _ start: Double, _ end: Double) -> Word { Word(start: start, end: end, word: text, confidence: 1) }

    @Test func wordsOutsideEveryStretchGoAndTheTextFollows() {
        var transcript = Transcript(text: "올해 안녕하세요 환자 노", words: [
            word("올해", 0.2, 0.6), word("안녕하세요", 2.0, 2.8), word("환자", 3.1, 3.5), word("노", 9.0, 9.4),
        ])
        transcript.model = "vosk-model-small-ko-0.22"
        let kept = transcript.keepingWords(within: [(start: 2.1, end: 3.2)], margin: SpeechStretches.margin)
        #expect(kept.words.map(\.word) == ["안녕하세요", "환자"])
        #expect(kept.text == "안녕하세요 환자")
        #expect(kept.model == "vosk-model-small-ko-0.22")
    }

    @Test func aWordAtAStretchsEdgeWithinTheMarginStaysAndAllKeptIsTheSameTranscript() {
        let transcript = Transcript(text: "go forward", words: [word("go", 0.8, 1.0), word("forward", 3.05, 3.6)])
        #expect(transcript.keepingWords(within: [(start: 1.25, end: 2.8)], margin: 0.3) == transcript)
        #expect(transcript.keepingWords(within: [], margin: 0.3).text == "", "no speech heard, no words")
    }
}
