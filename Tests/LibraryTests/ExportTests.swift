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

    @Test("Plain text is the transcript")
    func text() { #expect(ExportFormat.txt.render(memo) == "one two three four five six seven eight nine\n") }

    @Test("SRT cues are numbered and timed by the words, with a comma before the milliseconds")
    func srt() {
        #expect(
            ExportFormat.srt.render(memo) == """
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
        let vtt = ExportFormat.vtt.render(memo)
        #expect(vtt.hasPrefix("WEBVTT\n\n00:00:00.000 --> 00:00:02.500\none two three\n\n"))
        #expect(vtt.hasSuffix("00:00:12.250 --> 01:02:03.500\nnine\n"))
    }

    @Test("JSON carries the memo and every word's timing")
    func json() throws {
        struct Document: Decodable {
            var title: String
            var transcript: String
            var words: [Word]
        }
        let document = try JSONDecoder().decode(Document.self, from: Data(ExportFormat.json.render(memo).utf8))
        #expect(document.title == "Ward round")
        #expect(document.transcript == memo.transcript)
        #expect(document.words == memo.words)
    }
}
