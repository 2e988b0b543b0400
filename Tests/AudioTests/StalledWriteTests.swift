import Dispatch
import Foundation
import NotulaTestSupport
import Recording
import Synchronization
import TestPasses
import Testing

@testable import Audio

/// A listener as slow as a stalled disk: the first samples it is given, it holds on to for
/// `stall`. It is handed the samples just after they are written to the file, on the same thread,
/// so a stall here holds up everything a stalled write (an fdatasync on a busy disk) holds up.
final class StalledListener: CapturedAudioListener {
    let entered: AsyncStream<Void>
    private let enter: AsyncStream<Void>.Continuation
    private let stall: Duration
    private let stalled = Atomic<Bool>(false)
    let heard = ListenerDouble()

    init(stall: Duration) {
        self.stall = stall
        (entered, enter) = AsyncStream.makeStream()
    }

    func captureStarted(_ recording: RecordingID, locale: String) { heard.captureStarted(recording, locale: locale) }
    func captured(_ samples: UnsafeRawBufferPointer, of recording: RecordingID) {
        if !stalled.exchange(true, ordering: .relaxed) {
            enter.yield()
            let milliseconds = stall.components.seconds * 1000 + stall.components.attoseconds / 1_000_000_000_000_000
            usleep(useconds_t(milliseconds * 1000))
        }
        heard.captured(samples, of: recording)
    }
    func captureEnded(_ recording: RecordingID) { heard.captureEnded(recording) }
    func captureDropped(_ recording: RecordingID) { heard.captureDropped(recording) }
    func captureContinued(_ previous: RecordingID, as next: RecordingID) { heard.captureContinued(previous, as: next) }
}

@Suite(.serialized, .tags(.capture)) struct StalledWriteTests {
    /// Pause and Resume take the PulseAudio main loop's lock; the samples' way to the disk must not hold it.
    @Test func pauseAndResumeAnswerWhileTheDiskIsStalled() async throws {
        let sink = try await NullSink()
        let folder = TemporaryFolder()
        defer { folder.remove() }
        let listener = StalledListener(stall: .seconds(3))
        let capture = PulseCapture(recordingsDirectory: folder.recordings, source: sink.monitor, listener: listener)
        try await capture.start(recording: RecordingID("stalled"), locale: "ko-KR")
        for await _ in listener.entered { break }

        let clock = ContinuousClock()
        let began = clock.now
        try await capture.pause()
        let paused = clock.now
        try await capture.resume()
        let resumed = clock.now
        let audio = try await capture.stop()

        print("Pause took \(paused - began), resume \(resumed - paused), during a 3 s stall")
        #expect(paused - began < .milliseconds(500), "Pause waited for the stalled write: \(paused - began)")
        #expect(resumed - paused < .milliseconds(500), "Resume waited for the stalled write: \(resumed - paused)")
        // Nothing of what arrived during the stall is lost: the file and the listener have it all.
        let wav = try WAVReader(path: audio.file)
        #expect(wav.declaredDataBytes == wav.fileSize - 44)
        #expect(listener.heard.bytesHeard[RecordingID("stalled")] == wav.declaredDataBytes)
        #expect(audio.duration > 0)
    }
}

@Suite(.serialized, .tags(.capture)) struct StalledDiskPatienceTests {
    /// A disk that takes nothing for longer than the patience stops the recording as lost, rather than
    /// fill the memory; what reached the file is kept.
    @Test func aDiskStalledPastThePatienceLosesTheInputAndKeepsTheFile() async throws {
        let sink = try await NullSink()
        let folder = TemporaryFolder()
        defer { folder.remove() }
        let listener = StalledListener(stall: .seconds(3))
        let capture = PulseCapture(
            recordingsDirectory: folder.recordings, source: sink.monitor, listener: listener, stalledDiskPatience: .seconds(1))
        try await capture.start(recording: RecordingID("stalled"), locale: "ko-KR")
        let firstEvent = Task { () -> CaptureEvent? in
            for await event in capture.events { return event }
            return nil
        }
        let deadline = Task {
            try await Task.sleep(for: .seconds(10))
            firstEvent.cancel()
        }
        defer { deadline.cancel() }
        let event = await firstEvent.value
        let lost: String? = if case .lost(let message) = event { message } else { nil }
        try await capture.pause()
        let audio = try await capture.stop()

        #expect(lost?.contains("disk") == true, "\(String(describing: lost))")
        let wav = try WAVReader(path: audio.file)
        #expect(wav.declaredDataBytes == wav.fileSize - 44)
        #expect(listener.heard.bytesHeard[RecordingID("stalled")] == wav.declaredDataBytes)
        #expect(audio.duration < 2, "no more than the patience waited in memory: \(audio.duration) s")
    }
}
