import TestPasses
import Testing

@testable import Speech

/// When Whisper's text from a window fitted to an utterance is taken, rather than the full 30 s window's.
@Suite(.tags(.speech)) struct FittedWindowTests {
    @Test func aFittedWindowIsTheUtterancesLengthWithAMargin() throws {
        let short = try #require(FittedWindow(sampleCount: 16_000 * 2))
        #expect(short.frames == 500, "at least 10 s")
        let ten = try #require(FittedWindow(sampleCount: 16_000 * 10))
        #expect(ten.frames == 500 + 64)
        #expect(FittedWindow(sampleCount: 16_000 * 11) == nil, "past 10 s the full window serves")
        #expect(FittedWindow(sampleCount: 0) == nil)
    }

    @Test func aFittedWindowsTextIsTakenOnlyWhenItReadsAsSpeechOfItsLength() throws {
        let window = try #require(FittedWindow(sampleCount: 16_000 * 4))
        func segment(_ text: String, end: Double = 3.5) -> [WhisperModel.Segment] { [.init(start: 0.5, end: end, text: text)] }
        #expect(window.accepts(segment("The patient reports mild chest pain since yesterday."), noSpeech: [0.01]))
        #expect(!window.accepts(segment("The patient reports mild chest pain."), noSpeech: [0.9]), "Whisper heard no speech")
        #expect(!window.accepts(segment("and then and then and then we went"), noSpeech: [0]), "a loop")
        #expect(!window.accepts(segment("yes yes yes"), noSpeech: [0]), "one word three times")
        #expect(window.accepts(segment("yes yes, I said"), noSpeech: [0]))
        #expect(!window.accepts(segment("Thank you, that is all. Thank you, that is all."), noSpeech: [0]), "a sentence twice")
        #expect(!window.accepts(segment((1...25).map { "word\($0)" }.joined(separator: " ")), noSpeech: [0]), "25 words in 4 s")
        #expect(
            !window.accepts(segment("The patient.") + [.init(start: 4.2, end: 5, text: "Thank you.")], noSpeech: [0, 0]),
            "a segment in the silence after the audio")
    }
}
