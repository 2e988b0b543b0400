import FoundationEssentials
import Library
import Memos
import Recording
import Testing

@Suite("Nothing lost: a memo a stopped service left unfinished is repaired at the next open")
struct MemoRecoveryTests {
    @Test(
        "A row left recording or transcribing: its WAV repaired, the memo recovered and transcribed in its own locale",
        arguments: [MemoStatus.recording, .transcribing])
    func unfinishedIsRecovered(_ left: MemoStatus) async throws {
        let folder = try MemoFolder()
        let id = "1700000000000000"
        let file = folder.recordings + "/\(id).wav"
        try Self.writeUnfinishedWAV(samples: 24_000, at: file)
        try Self.leaveRow(id, left, locale: "ko-KR", audioFile: file, in: folder)

        let library = try await folder.library(locale: "nl-NL", outcome: .text("안녕하세요", []))
        #expect(await folder.events.wait { $0.contains(.changed(id, .transcribed)) })

        let memo = try await library.transcribedMemo(id)
        #expect(memo.status == .recovered)
        #expect(memo.duration == 1.5)
        #expect(memo.transcript == "안녕하세요")
        #expect(folder.calls.all == [.settled("ko-KR"), .text(RecordingID(id), file: file, locale: "ko-KR")])
        let header = try #require(FileManager.default.contents(atPath: file)).prefix(44)
        #expect(header.suffix(4).elementsEqual([0x80, 0xBB, 0x00, 0x00]), "the header's data size is not the 48 000 bytes on disk")
    }

    @Test("A row left recording whose audio is gone becomes failed, saying why, and is not transcribed")
    func goneAudioEndsFailed() async throws {
        let folder = try MemoFolder()
        let id = "1700000000000000"
        let file = folder.recordings + "/\(id).wav"
        try Self.leaveRow(id, .recording, locale: "ko-KR", audioFile: file, in: folder)

        let library = try await folder.library()

        let reason = "Notula stopped while this memo was recorded, and its audio file \(file) is gone."
        let memo = await library.summary(id)
        #expect(memo?.status == .failed)
        #expect(memo?.failure == reason)
        await #expect(throws: MemoError.transcriptionFailed(.failed(reason))) { try await library.transcribedMemo(id) }
        #expect(folder.calls.all.isEmpty)
        try await library.delete(id)
        #expect(await library.count == 0)
    }

    /// The row a service stopped with `id` in `status` leaves.
    private static func leaveRow(_ id: String, _ status: MemoStatus, locale: String, audioFile: String, in folder: MemoFolder) throws {
        let store = try MemoStore(path: folder.database)
        try store.insert(Memo(id: id, created: Int64(id) ?? 0, locale: locale, audioFile: audioFile))
        _ = try store.update(id) { $0.status = status }
    }

    /// A WAV as a killed writer leaves it: Notula's header with its sizes still 0, then `samples` of silence.
    private static func writeUnfinishedWAV(samples: Int, at file: String) throws {
        func littleEndian<T: FixedWidthInteger>(_ value: T) -> [UInt8] { withUnsafeBytes(of: value.littleEndian) { Array($0) } }
        let header =
            Array("RIFF".utf8) + littleEndian(UInt32(0)) + Array("WAVEfmt ".utf8) + littleEndian(UInt32(16)) + littleEndian(UInt16(1))
            + littleEndian(UInt16(1)) + littleEndian(UInt32(16_000)) + littleEndian(UInt32(32_000)) + littleEndian(UInt16(2))
            + littleEndian(UInt16(16)) + Array("data".utf8) + littleEndian(UInt32(0))
        #expect(FileManager.default.createFile(atPath: file, contents: Data(header + [UInt8](repeating: 0, count: samples * 2))))
    }
}
