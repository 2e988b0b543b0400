import FoundationEssentials
import Memos
import Recording
import Testing

@Suite("A memo from its capture's start to its text, or to nothing when discarded")
struct MemoFlowTests {
    @Test("A processed recording becomes done with its text, its model waited for before it is transcribed")
    func processedToDone() async throws {
        let folder = try MemoFolder()
        let words = [Word(start: 0.2, end: 0.6, word: "hallo", confidence: 1), Word(start: 0.7, end: 1.1, word: "wereld", confidence: 0.9)]
        let library = try await folder.library(locale: "nl-NL", outcome: .text("hallo wereld", words))
        let id = "1700000000000000"
        #expect(await folder.startCapture(id, in: library))
        #expect(await library.current == id)

        let file = folder.recordings + "/\(id).wav"
        try await library.process(CapturedAudio(file: file, duration: 2.5), recording: RecordingID(id))

        let memo = try await library.transcribedMemo(id)
        #expect(memo.status == .done)
        #expect(memo.transcript == "hallo wereld" && memo.words == words)
        #expect(memo.duration == 2.5 && memo.locale == "nl-NL" && memo.audioFile == file)
        #expect(memo.written == TranscriberDouble.written("hallo wereld"), "the written text beside the words")
        #expect(await library.text(of: RecordingID(id)) == memo.written, "what is delivered is the written text")
        #expect(await library.current == nil, "a sent recording is no longer the one Delete refuses")
        #expect(folder.calls.all == [.locale(RecordingID(id)), .settled("nl-NL"), .text(RecordingID(id), file: file, locale: nil)])
        #expect(folder.events.all.dropFirst() == [.countChanged(1), .changed(id, .progress), .changed(id, .transcribed)])
        #expect(memo.title == memo.written, "titled from its few words")
    }

    @Test("A recording discarded while it is transcribed: the transcription stops, and its row and audio are gone")
    func discardedWhileTranscribed() async throws {
        let folder = try MemoFolder()
        let library = try await folder.library(outcome: .untilCancelled)
        let id = "1700000000000000"
        #expect(await folder.startCapture(id, in: library))
        let audio = CapturedAudio(file: folder.recordings + "/\(id).wav", duration: 1)
        #expect(folder.touch(audio.file))

        let processing = Task { try await library.process(audio, recording: RecordingID(id)) }
        #expect(await folder.calls.wait { $0.contains(.text(RecordingID(id), file: audio.file, locale: nil)) })
        processing.cancel()
        await #expect(throws: RecordingError.failed("The recording was discarded.")) { try await processing.value }
        await library.discard(audio)

        #expect(await library.summary(id) == nil)
        #expect(await library.count == 0)
        #expect(!FileManager.default.fileExists(atPath: audio.file))
        #expect(folder.events.all.suffix(2) == [.removed(id), .countChanged(0)])
    }

    @Test("A memo whose transcription failed says why; one still transcribed says so")
    func transcriptRefusals() async throws {
        let folder = try MemoFolder()
        let library = try await folder.library(outcome: .untilCancelled)
        let id = "1700000000000000"
        #expect(await folder.startCapture(id, in: library))
        await #expect(throws: MemoError.stillRecording) { try await library.transcribedMemo(id) }

        let audio = CapturedAudio(file: folder.recordings + "/\(id).wav", duration: 1)
        let processing = Task { try await library.process(audio, recording: RecordingID(id)) }
        #expect(await folder.calls.wait { $0.contains(.text(RecordingID(id), file: audio.file, locale: nil)) })
        await #expect(throws: MemoError.stillTranscribing) { try await library.transcribedMemo(id) }
        processing.cancel()
        _ = await processing.result
        await #expect(throws: MemoError.transcriptionFailed(.failed("The recording was discarded."))) {
            try await library.transcribedMemo(id)
        }
        await #expect(throws: MemoError.noSuchMemo("1")) { try await library.transcribedMemo("1") }
    }
}
