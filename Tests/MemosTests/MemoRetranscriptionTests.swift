import FoundationEssentials
import Library
import Memos
import Recording
import Testing

@Suite("A memo transcribed again: the new text when it succeeds, the old kept when it fails")
struct MemoRetranscriptionTests {
    /// A done memo of "hallo wereld", its audio file there.
    private func doneMemo(_ folder: MemoFolder, _ library: MemoLibrary, id: String = "1700000000000000") async throws -> String {
        #expect(await folder.startCapture(id, in: library))
        let file = folder.recordings + "/\(id).wav"
        #expect(folder.touch(file))
        try await library.process(CapturedAudio(file: file, duration: 2), recording: RecordingID(id))
        return id
    }

    @Test func theNewTextLocaleAndModelReplaceTheOldOnceDecoded() async throws {
        let folder = try MemoFolder()
        let library = try await folder.library()
        let id = try await doneMemo(folder, library)

        try await library.transcribeAgain(id, in: "de-DE", model: "vosk-model-de-0.21")
        #expect(await library.summary(id)?.status == .transcribing)
        await #expect(throws: MemoError.stillTranscribing) { try await library.transcribeAgain(id, in: "de-DE", model: "m") }
        #expect(await folder.events.wait { $0.last == .changed(id, .transcribed) })

        let memo = try await library.transcribedMemo(id)
        #expect(
            memo.status == .done && memo.transcript == "goedemorgen wereld"
                && memo.written == TranscriberDouble.written("goedemorgen wereld"))
        #expect(memo.locale == "de-DE" && memo.model == "vosk-model-de-0.21")
        #expect(memo.title == memo.written, "a title from the old text follows the new one")
        #expect(folder.calls.all.last == .again(file: memo.audioFile, locale: "de-DE", model: "vosk-model-de-0.21"))
        #expect(folder.calls.all.filter { $0 == .settled("de-DE") }.count == 1, "a model being installed is waited for")
    }

    @Test func aFailureKeepsTheOldTextAndSaysWhy() async throws {
        let folder = try MemoFolder()
        let library = try await folder.library(again: .failure(.modelUnavailable("The model is gone")))
        let id = try await doneMemo(folder, library)
        try await library.rename(id, to: "Ward round")

        try await library.transcribeAgain(id, in: "nl-NL", model: "gone")
        #expect(await folder.events.wait { events in events.filter { $0 == .changed(id, .progress) }.count == 3 })

        let memo = try await library.transcribedMemo(id)
        #expect(memo.status == .failed && memo.failure == "The model is gone")
        #expect(memo.transcript == "hallo wereld" && memo.model == "double" && memo.title == "Ward round")
    }

    @Test func refusedForAMemoRecordedAnUnknownOneOrOneWithoutAudio() async throws {
        let folder = try MemoFolder()
        let library = try await folder.library()
        await #expect(throws: MemoError.noSuchMemo("1")) { try await library.transcribeAgain("1", in: "nl-NL", model: "m") }
        #expect(await folder.startCapture("1700000000000001", in: library))
        await #expect(throws: MemoError.stillRecording) { try await library.transcribeAgain("1700000000000001", in: "nl-NL", model: "m") }

        let id = try await doneMemo(folder, library, id: "1700000000000002")
        let file = folder.recordings + "/\(id).wav"
        try FileManager.default.removeItem(atPath: file)
        await #expect(throws: MemoError.audioGone(memo: id, file: file)) { try await library.transcribeAgain(id, in: "nl-NL", model: "m") }
    }

    @Test func memosAskedForAreDecodedOneAtATimeInOrder() async throws {
        let folder = try MemoFolder()
        let library = try await folder.library()
        let ids = [
            try await doneMemo(folder, library, id: "1700000000000001"), try await doneMemo(folder, library, id: "1700000000000002"),
        ]
        for (id, model) in zip(ids, ["a", "b"]) { try await library.transcribeAgain(id, in: "nl-NL", model: model) }
        #expect(await folder.events.wait { $0.filter { if case .changed(_, .transcribed) = $0 { true } else { false } }.count == 4 })
        #expect(folder.calls.all.compactMap { if case .again(_, _, let model) = $0 { model } else { nil } } == ["a", "b"])
    }
}
