import DBus
import Foundation
import Glibc
import NotulaContract
import NotulaTestSupport
import TestPasses
import Testing

/// The library's parts that need a transcript: exports, search by what was said, and a recovered
/// memo transcribed at the next start. Named to run with the speech suites (`make test`).
@Suite("Memo library with real transcripts", .serialized, .tags(.speech))
struct LibraryTranscriptionTests {
    private func koreanService(home: URL? = nil, place: URL) async throws -> ServiceUnderTest {
        let service = try await ServiceUnderTest.start(environment: ["VOSK_MODEL_PATH": place.path], home: home)
        _ = try await service.call(
            NotulaBus.recorderPath, "org.freedesktop.DBus.Properties", "Set",
            [
                .string(NotulaBus.recorderInterface.rawValue), .string(NotulaBus.Recorder.Property.locale.rawValue),
                .variant(.string("ko-KR")),
            ])
        return service
    }

    @Test("Exports follow the word timings; search finds the memo by a word that was said")
    func exportsAndSearch() async throws {
        let place = try modelPlace()
        defer { try? FileManager.default.removeItem(at: place) }
        let service = try await koreanService(place: place)
        let signals = try await service.recorderSignals()
        // Made before Start: on a loaded machine espeak-ng took 10 s, which the recording heard as quiet.
        let spoken = try speech("annyeong haseyo, notula imnida")
        try await service.recorder(.start)
        try await service.sink?.play(spoken)
        let memo = try await service.recorder(.process).argument(0, as: ObjectPath.self)
        try await service.untilProcessed(signals)

        let transcript = try await service.memo(.getTranscript, of: memo)
        let text = try transcript.argument(0, as: String.self)
        let words = try transcript.argument(1, as: [DBusStruct<Double, Double, String, Double>].self)
        let first = try #require(words.first)

        let json = try await service.memo(.export, of: memo, [.string("json")]).argument(0, as: String.self)
        let document = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        #expect(document["transcript"] as? String == text)
        let exportedWords = try #require(document["words"] as? [[String: Any]])
        #expect(exportedWords.map { $0["word"] as? String } == words.map(\.fields.2))
        #expect(exportedWords.map { $0["start"] as? Double } == words.map(\.fields.0))

        let srt = try await service.memo(.export, of: memo, [.string("srt")]).argument(0, as: String.self)
        let millis = Int((first.fields.0 * 1000).rounded())
        let clock = String(format: "%02d:%02d:%02d,%03d", millis / 3_600_000, millis / 60_000 % 60, millis / 1000 % 60, millis % 1000)
        #expect(srt.hasPrefix("1\n\(clock) --> "), "\(srt)")
        #expect(srt.contains(first.fields.2))
        let txt = try await service.memo(.export, of: memo, [.string("txt")]).argument(0, as: String.self)
        #expect(txt == text + "\n")
        await #expect {
            try await service.memo(.export, of: memo, [.string("docx")])
        } throws: { ($0 as? BusError)?.name == .invalidArgs }

        let hits = try await service.library(
            .search, [.string(first.fields.2), .uint32(5)]
        )
        .argument(0, as: [DBusStruct<ObjectPath, String>].self)
        #expect(hits.map(\.fields.0) == [memo])
    }

    @Test("A memo recovered after kill -9 is transcribed at the next start, and stays recovered")
    func recoveredIsTranscribed() async throws {
        let place = try modelPlace()
        defer { try? FileManager.default.removeItem(at: place) }
        let service = try await koreanService(place: place)
        try await service.recorder(.start)
        try await service.sink?.play(try speech("annyeong haseyo, notula imnida"))
        let listed = try await service.library(.list, [.uint32(0), .uint32(1)])
        let memo = try #require(try listed.argument(0, as: [ObjectPath].self).first)
        #expect(service.stop(with: SIGKILL) == SIGKILL)

        let again = try await koreanService(home: service.home, place: place)
        // A deadline against a hang, not a speed: beside the speech pass the model alone took 10.8 s to load.
        try await again.waitForLog("Recovered memo \(memo.rawValue.split(separator: "/").last!) transcribed", within: .seconds(120))
        #expect(try await again.property(.status, of: memo) == .string("recovered"))
        let text = try await again.memo(.getTranscript, of: memo).argument(0, as: String.self)
        #expect(!text.isEmpty)
    }
}
