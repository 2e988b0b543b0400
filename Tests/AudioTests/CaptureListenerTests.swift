import Foundation
import NotulaTestSupport
import Recording
import Synchronization
import TestPasses
import Testing

@testable import Audio

/// Records what the capture tells its listener, in order.
final class ListenerDouble: CapturedAudioListener {
    private let log = Mutex<[String]>([])
    var calls: [String] { log.withLock { $0 } }
    private let bytes = Mutex<[RecordingID: Int]>([:])
    /// The sample bytes heard of each recording.
    var bytesHeard: [RecordingID: Int] { bytes.withLock { $0 } }

    func captureStarted(_ recording: RecordingID, locale: String) { log.withLock { $0.append("started \(recording)") } }
    func captured(_ samples: UnsafeRawBufferPointer, of recording: RecordingID) {
        bytes.withLock { $0[recording, default: 0] += samples.count }
    }
    func captureEnded(_ recording: RecordingID) { log.withLock { $0.append("ended \(recording)") } }
    func captureDropped(_ recording: RecordingID) { log.withLock { $0.append("dropped \(recording)") } }
    func captureContinued(_ previous: RecordingID, as next: RecordingID) {
        log.withLock { $0.append("continued \(previous) as \(next)") }
    }
}

@Suite(.tags(.capture)) struct CaptureListenerTests {
    /// A stop ends the recording once; a discard that comes after it (the user discards while the memo is being
    /// made) is not the capture's to report: the file is the memo's now.
    @Test func aStopEndsTheRecordingAndADiscardAfterItDropsNothing() async throws {
        let sink = try await NullSink()
        let folder = TemporaryFolder()
        defer { folder.remove() }
        let listener = ListenerDouble()
        let capture = PulseCapture(recordingsDirectory: folder.recordings, source: sink.monitor, listener: listener)
        try await capture.start(recording: RecordingID("kept"), locale: "ko-KR")
        let audio = try await capture.stop()
        await capture.discard()
        #expect(listener.calls == ["started kept", "ended kept"])
        #expect(FileManager.default.fileExists(atPath: audio.file))

        try await capture.start(recording: RecordingID("dropped"), locale: "ko-KR")
        await capture.discard()
        #expect(listener.calls == ["started kept", "ended kept", "started dropped", "dropped dropped"])
    }
}
