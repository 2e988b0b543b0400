import DBus
import Foundation
import NotulaContract
import NotulaTestSupport
import Testing

/// A recording longer than a memo may be goes on as consecutive memos; here a memo holds a second
/// (`longestMemoSeconds`), where it holds what a WAV file can, 37 hours, by default.
@Suite("A recording past the length limit goes on as consecutive memos")
struct LongRecordingTests {
    @Test func eachFullSecondBecomesAMemoWhileTheRecordingGoesOnAndSendingMakesTheLast() async throws {
        let service = try await ServiceUnderTest.start(settings: [#""longestMemoSeconds": 1"#])
        defer { _ = service.stop(with: SIGKILL) }
        var events = try await service.recorderSignals().makeAsyncIterator()

        try await service.recorder(.start)
        // Each full part is sent on its own, and reports as a sent recording does (no model here: Failed).
        var seen: [RecorderEvent] = []
        for _ in 1...2 { seen += await events.events { if case .failed = $0 { true } else { false } } }
        #expect(seen.filter { if case .state = $0 { true } else { false } }.allSatisfy { $0 == .state("recording", reason: "") })
        #expect(try await service.property(.state) == .string("recording"))
        guard case .double(let elapsed) = try await service.property(.elapsed) else { Issue.record("no Elapsed"); return }
        // Two parts of a second are memos already: the timer counts the part under way, which the split
        // step, however late a loaded machine runs it, brings back under the limit.
        #expect(elapsed < 2, "the timer counts the memo under way: \(elapsed) s")

        let last = try await service.recorder(.process).argument(0, as: ObjectPath.self)
        _ = await events.events(until: .state("idle", reason: ""))
        let listed = try await service.library(.list, [.uint32(0), .uint32(1000)])
        let memos = try listed.argument(0, as: [ObjectPath].self)
        // Three on a quiet machine; one more for each second a loaded one takes to report the first two.
        #expect(memos.count >= 3 && memos.first == last, "\(memos)")
        var total = 0.0
        for (index, memo) in memos.reversed().enumerated() {
            guard case .string(let file) = try await service.property(.audioFile, of: memo),
                case .double(let duration) = try await service.property(.duration, of: memo)
            else { Issue.record("memo \(memo) lacks its audio"); continue }
            let audio = try WAVReader(path: file)
            #expect(audio.duration == duration && audio.declaredDataBytes == audio.fileSize - 44)
            if index < memos.count - 1 { #expect(duration == 1, "a full part holds the limit") }
            let mode = try FileManager.default.attributesOfItem(atPath: file)[.posixPermissions] as? Int
            #expect(mode == 0o600, "clinical notes are the user's alone")
            total += duration
        }
        #expect(total > 2, "\(total) s in all")
    }
}
