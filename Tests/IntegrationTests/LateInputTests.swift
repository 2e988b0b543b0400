import DBus
import Foundation
import NotulaContract
import NotulaTestSupport
import TestPasses
import Testing

@Suite("An input that delivers late: the timer counts the audio, not the time since the stream opened", .serialized, .tags(.timing))
struct LateInputTests {
    /// As the first recording after a start showed on a live PulseAudio: its input delivered 1.4 s after
    /// it opened, and Elapsed said 5.00 s for a 3.58 s WAV.
    @Test func theTimerAndItsAnchorStartWithTheFirstSamples() async throws {
        let sound = try await PrivateSoundServer()
        let late = try LateSource(on: sound)
        var watched = try await WatchedRecording.start(on: sound, source: late.name)
        let service = watched.service

        // The stream is open (Start has answered), and the input delivers nothing for 1.5 s.
        try await Task.sleep(for: .milliseconds(1500))
        let fedFrom = monotonicMicroseconds()
        let feeding = Task { try await late.feed(seconds: 2) }
        let anchor = try await service.runningTimerAnchor()
        #expect(anchor >= fedFrom - 50_000, "the timer ran \(Double(fedFrom - anchor) / 1e6) s before the first samples")
        try await feeding.value
        let memo = try await service.recorder(.process).argument(0, as: ObjectPath.self)

        var finalElapsed: Double?
        while let message = await watched.events.next() {
            let changed = try? message.argument(1, as: [String: Variant].self)
            guard let state = try? changed?["State"]?.get(String.self), state == "processing" else { continue }
            finalElapsed = try? changed?["Elapsed"]?.get(Double.self)
            break
        }
        guard case .string(let path) = try await service.property(.audioFile, of: memo) else {
            Issue.record("no audio file")
            return
        }
        let wav = try WAVReader(path: path)
        let elapsed = try #require(finalElapsed)
        print("Late input: WAV \(wav.duration) s, Elapsed \(elapsed) s")
        #expect(abs(wav.duration - elapsed) <= 0.1, "WAV \(wav.duration) s, Elapsed \(elapsed) s")
        #expect(wav.duration >= 1.9, "the 2 s fed are in the file: \(wav.duration) s")
    }
}
