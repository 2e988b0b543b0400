import Foundation
import NotulaTestSupport
import Recording
import TestPasses
import Testing

@testable import Audio

/// A recording at the length limit goes on into the next file without a sample lost, against the real server.
@Suite(.serialized, .tags(.capture)) struct LengthLimitTests {
    /// Split at once, or only once the tone has ended (seconds past the limit wait in memory, and each
    /// next file is full as soon as it is made).
    @Test(arguments: [false, true])
    func aToneRecordedAcrossThreeSplitsIsContinuousAndEachFullFileHoldsTheLimit(splitsLate: Bool) async throws {
        let sink = try await NullSink()
        let folder = TemporaryFolder()
        defer { folder.remove() }
        let listener = ListenerDouble()
        let second = RecordingFormat.bytesPerSecond
        let capture = PulseCapture(
            recordingsDirectory: folder.recordings, source: sink.monitor, listener: listener, lengthLimit: UInt64(second))
        let tone = try await TestSounds.tone(seconds: 8)
        let ids = ["a", "b", "c", "d"]

        // paplay may take seconds to start on a loaded machine: the recording starts with the tone.
        let playing = try sink.startPlaying(tone)
        try await sink.heard(louderThan: 8000)
        try await capture.start(recording: RecordingID(ids[0]), locale: "ko-KR")
        var parts: [CapturedAudio] = []
        for await event in capture.events {
            guard case .lengthLimitReached = event else { continue }
            if splitsLate { try await playing.end() }
            parts.append(try await capture.split(continuingAs: RecordingID(ids[parts.count + 1])))
            if parts.count == 3 { break }
        }
        try await playing.end()
        parts.append(try await capture.stop())

        #expect(parts.map(\.file) == ids.map { folder.recordings + "/\($0).wav" })
        #expect(parts.dropLast().allSatisfy { $0.duration == 1 })
        #expect(listener.calls == ["started a", "continued a as b", "continued b as c", "continued c as d", "ended d"])
        let data = try parts.map { try samples(of: $0.file) }
        #expect(data.dropLast().allSatisfy { $0.count * 2 == second })
        for (part, id) in zip(data, ids) {
            #expect(listener.bytesHeard[RecordingID(id)] == part.count * 2, "the listener hears every sample of \(id)")
        }
        // A 440 Hz sine at half scale changes slope by at most 16384·(2π·440/16000)² ≈ 490 a sample; a
        // sample lost or doubled at a joint breaks the curve by thousands.
        let whole: [Int] = data.flatMap { $0.map(Int.init) }
        let joints = (1...3).map { $0 * second / 2 }
        func slopeChange(at index: Int) -> Int { abs(whole[index + 1] - 2 * whole[index] + whole[index - 1]) }
        func loudness(at index: Int) -> Int { whole[max(index - 160, 0)..<min(index + 160, whole.count)].map(abs).max() ?? 0 }
        // The tone, 8 s from just before the start, spans the joints at 1, 2 and 3 s unless the start took seconds.
        let inTone = joints.filter { loudness(at: $0) > 8000 && $0 + 2 < whole.count }
        #expect(inTone.count >= 2, "loudness at the joints: \(joints.map(loudness))")
        let curveBreaks = inTone.map { joint in (joint - 2...joint + 1).map(slopeChange).max() ?? 0 }
        #expect(curveBreaks.allSatisfy { $0 < 700 }, "second differences at the joints: \(curveBreaks)")
    }

    /// The 16-bit samples of a WAV file written by the capture.
    private func samples(of file: String) throws -> [Int16] {
        let bytes = try Data(contentsOf: URL(fileURLWithPath: file)).dropFirst(44)
        return bytes.withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }
    }
}
