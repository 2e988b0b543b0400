import FoundationEssentials
import Library
import Recording
import Testing

@Suite("Export formats")
struct ExportTests {
    /// Nine words a second apart, with a long pause before the last: cues of at most three seconds, then a pause.
    let memo: Memo = {
        var memo = TemporaryStore.memo(1, title: "Ward round", transcript: "one two three four five six seven eight nine")
        memo.words[8].start = 12.25
        memo.words[8].end = 3723.5
        return memo
    }()

    /// Each word with a space before it but the first: words written as recognised.
    let spaced: ([String]) -> [String] = { words in words.enumerated().map { $0.offset == 0 ? $0.element : " " + $0.element } }

    @Test("Plain text is the written text")
    func text() {
        var written = memo
        written.written = "One, two. Three"
        #expect(ExportFormat.txt.render(written, writing: spaced) == "One, two. Three\n")
    }

    /// What each word adds comes from the writing: a command's rest adds nothing, and a cue of nothing is left out.
    @Test("Subtitles show each run of words as written")
    func writtenCues() {
        let spoken = TemporaryStore.memo(2, transcript: "hi comma new paragraph you there")
        let written: ([String]) -> [String] = { _ in ["Hi", ",", "\n\n", "", "You", " there"] }
        #expect(
            ExportFormat.srt.render(spoken, writing: written) == """
                1
                00:00:00,000 --> 00:00:02,500
                Hi,

                2
                00:00:03,000 --> 00:00:05,500
                You there

                """)
        var paragraph = TemporaryStore.memo(4, transcript: "one new paragraph two")
        paragraph.words = paragraph.words.map { Word(start: $0.start / 4, end: $0.end / 4, word: $0.word, confidence: 1) }
        #expect(
            ExportFormat.vtt.render(paragraph, writing: { _ in ["One", "\n\n", "", "Two"] })
                == "WEBVTT\n\n00:00:00.000 --> 00:00:00.875\nOne\nTwo\n", "a blank line would end the cue")
        let commandsOnly = TemporaryStore.memo(3, transcript: "period")
        #expect(ExportFormat.vtt.render(commandsOnly, writing: { _ in [""] }) == "WEBVTT\n\n")
    }

    @Test("SRT cues are numbered and timed by the words, with a comma before the milliseconds")
    func srt() {
        #expect(
            ExportFormat.srt.render(memo, writing: spaced) == """
                1
                00:00:00,000 --> 00:00:02,500
                one two three

                2
                00:00:03,000 --> 00:00:05,500
                four five six

                3
                00:00:06,000 --> 00:00:07,500
                seven eight

                4
                00:00:12,250 --> 01:02:03,500
                nine

                """)
    }

    @Test("WebVTT has its header and a dot before the milliseconds")
    func vtt() {
        let vtt = ExportFormat.vtt.render(memo, writing: spaced)
        #expect(vtt.hasPrefix("WEBVTT\n\n00:00:00.000 --> 00:00:02.500\none two three\n\n"))
        #expect(vtt.hasSuffix("00:00:12.250 --> 01:02:03.500\nnine\n"))
    }

    @Test("JSON carries the memo, every word's timing and which model wrote each utterance")
    func json() throws {
        struct Document: Decodable {
            var title: String
            var transcript: String
            var written: String
            var words: [Word]
            var model: String
            var utteranceModels: [UtteranceModel]
        }
        var memo = memo
        memo.model = "ggml-tiny.en"
        memo.utteranceModels = [UtteranceModel(start: 0, end: 2.5, model: "ggml-tiny.en"), UtteranceModel(start: 3, end: 8, model: "vosk")]
        let document = try JSONDecoder().decode(Document.self, from: Data(ExportFormat.json.render(memo, writing: spaced).utf8))
        #expect(document.title == "Ward round")
        #expect(document.transcript == memo.transcript && document.written == memo.written)
        #expect(document.words == memo.words)
        #expect(document.model == "ggml-tiny.en" && document.utteranceModels == memo.utteranceModels)
    }
}
