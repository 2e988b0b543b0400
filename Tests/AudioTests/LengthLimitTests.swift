import Foundation
import NotulaTestSupport
import Recording
import Testing

@testable import Audio

/// A recording at the length limit goes on into the next file without a sample lost, against the real server.
@Suite struct LengthLimitTests {
    /// Split at once, or only once the tone has ended (two seconds past the limit wait in memory, and
    /// the next file is full as soon as it is made).
    @Test(arguments: [false, true])
    func aToneRecordedAcrossTwoSplitsIsContinuousAndEachFullFileHoldsTheLimit(splitsLate: Bool) async throws {
        let sink = try NullSink()
        let folder = TemporaryFolder()
        defer { folder.remove() }
        let listener = ListenerDouble()
        let second = RecordingFormat.bytesPerSecond
        let capture = PulseCapture(
            recordingsDirectory: folder.recordings, source: sink.monitor, listener: listener, lengthLimit: UInt64(second))
        let tone = try await TestSounds.tone(seconds: 3)

        try await capture.start(recording: RecordingID("a"))
        let playing = Task.detached { try sink.play(tone) }
        var parts: [CapturedAudio] = []
        for await event in capture.events {
            guard case .lengthLimitReached(let full) = event else { continue }
            if splitsLate { try await playing.value }
            parts.append(try await capture.split(continuingAs: RecordingID(full == RecordingID("a") ? "b" : "c")))
            if parts.count == 2 { break }
        }
        try await playing.value
        parts.append(try await capture.stop())

        #expect(parts.map(\.file) == ["a", "b", "c"].map { folder.recordings + "/\($0).wav" })
        #expect(parts[0].duration == 1 && parts[1].duration == 1)
        #expect(listener.calls == ["started a", "continued a as b", "continued b as c"])
        let data = try parts.map { try samples(of: $0.file) }
        #expect(data[0].count * 2 == second && data[1].count * 2 == second)
        for (part, id) in zip(data, ["a", "b", "c"]) {
            #expect(listener.bytesHeard[RecordingID(id)] == part.count * 2, "the listener hears every sample of \(id)")
        }
        // A 440 Hz sine at half scale changes slope by at most 16384·(2π·440/16000)² ≈ 490 a sample; a
        // sample lost or doubled at a joint breaks the curve by thousands.
        let whole: [Int] = data.flatMap { $0.map(Int.init) }
        let joints = [data[0].count, data[0].count + data[1].count]
        func slopeChange(at index: Int) -> Int { abs(whole[index + 1] - 2 * whole[index] + whole[index - 1]) }
        let curveBreaks = joints.map { joint in (joint - 2...joint + 1).map(slopeChange).max() ?? 0 }
        #expect(curveBreaks.allSatisfy { $0 < 700 }, "second differences at the joints: \(curveBreaks)")
        #expect(whole[joints[0]] != 0 && whole[joints[1]] != 0, "the tone plays across both joints")
    }

    /// The 16-bit samples of a WAV file written by the capture.
    private func samples(of file: String) throws -> [Int16] {
        let bytes = try Data(contentsOf: URL(fileURLWithPath: file)).dropFirst(44)
        return bytes.withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }
    }
}
