import FoundationEssentials
import Memos
import Recording
import Testing

@Suite("Deleting a memo")
struct MemoDeleteTests {
    @Test("Delete refuses only the memo being recorded, and removes another's audio, opened text and row")
    func refusesOnlyTheCurrent() async throws {
        let folder = try MemoFolder()
        let library = try await folder.library()
        let sent = "1700000000000000"
        let recording = "1700000000000001"
        #expect(await folder.startCapture(sent, in: library))
        let audio = folder.recordings + "/\(sent).wav"
        let text = folder.transcripts + "/\(sent).txt"
        #expect(folder.touch(audio) && folder.touch(text))
        try await library.process(CapturedAudio(file: audio, duration: 1), recording: RecordingID(sent))
        #expect(await folder.startCapture(recording, in: library))

        await #expect(throws: MemoError.recordingInProgress(recording)) { try await library.delete(recording) }
        try await library.delete(sent)

        #expect(!FileManager.default.fileExists(atPath: audio))
        #expect(!FileManager.default.fileExists(atPath: text))
        #expect(await library.summary(sent) == nil)
        #expect(await library.summary(recording) != nil)
        #expect(await library.count == 1)
        #expect(folder.events.all.suffix(2) == [.removed(sent), .countChanged(1)])
        await #expect(throws: MemoError.noSuchMemo(sent)) { try await library.delete(sent) }
    }
}
