import Recording
import Synchronization
import Testing

@testable import Audio

/// A clock the test sets by hand.
private final class ManualClock: MonotonicClock {
    private let time = Mutex<Duration>(.seconds(1000))
    func now() -> Duration { time.withLock { $0 } }
    func advance(by duration: Duration) { time.withLock { $0 += duration } }
}

/// The first read after the audio is let through may carry audio captured long before it arrived: the server
/// held it back (a first start on a busy machine), or the input delivered it late. The recorder's timer starts
/// at the first sample in the file, so that Elapsed is the audio in the file.
@Suite struct FirstAudioTests {
    private let clock = ManualClock()
    private let folder = TemporaryFolder()
    private let sink: CaptureSink
    private let events: AsyncStream<CaptureEvent>

    init() throws {
        let (events, continuation) = AsyncStream.makeStream(of: CaptureEvent.self)
        self.events = events
        sink = CaptureSink(
            events: continuation, listener: nil, inputChanged: nil, lengthLimit: WAVHeader.largestDataSize,
            mostUnwritten: RecordingFormat.bytesPerSecond * 60, clock: clock)
        sink.begin(try RecordingFile(directory: folder.recordings, name: "first.wav"), of: RecordingID("first"), locale: "ko-KR")
        // As the recorder does at a start's transition.
        sink.hold(true)
    }

    @Test func aBurstFromBeforeTheLetThroughIsHeldBackAndTheTimerStartsWithTheAudioKept() async throws {
        defer { folder.remove() }
        let letThrough = letThroughThenRead(after: .milliseconds(300), [(seconds: 1.5, followedBy: 0)])

        #expect(await firstArrival() == letThrough)
        #expect(try finishedSeconds() == 0.3)
    }

    @Test func aReadIsOlderThanItsArrivalByTheAudioReadAfterIt() async throws {
        defer { folder.remove() }
        let letThrough = letThroughThenRead(
            after: .seconds(2), [(seconds: 0.5, followedBy: RecordingFormat.bytesPerSecond), (seconds: 1, followedBy: 0)])

        // Captured from 0.5 s after the let-through: all of it is kept, and the timer, read at the last
        // sample's arrival, counts the 1.5 s in the file.
        let arrival = try #require(await firstArrival())
        #expect(arrival == letThrough + .milliseconds(500))
        #expect(try finishedSeconds() == (clock.now() - arrival).seconds)
    }

    @Test func aReadAllFromBeforeTheLetThroughIsDroppedAndTheNextStartsTheTimer() async throws {
        defer { folder.remove() }
        let letThrough = letThroughThenRead(
            after: .seconds(1), [(seconds: 1, followedBy: RecordingFormat.bytesPerSecond), (seconds: 1, followedBy: 0)])

        #expect(await firstArrival() == letThrough)
        #expect(try finishedSeconds() == 1)
    }

    /// Lets the audio through, and `after` that hands the sink `reads`: each `seconds` of samples, with `followedBy`
    /// bytes read after them. Returns when the audio was let through.
    private func letThroughThenRead(after wait: Duration, _ reads: [(seconds: Double, followedBy: Int)]) -> Duration {
        let letThrough = clock.now()
        sink.hold(false)
        clock.advance(by: wait)
        for read in reads {
            let samples = [UInt8](repeating: 0x10, count: Int(read.seconds * Double(RecordingFormat.bytesPerSecond)))
            samples.withUnsafeBytes { sink.receive($0, followedBy: read.followedBy) }
        }
        return letThrough
    }

    private func firstArrival() async -> Duration? {
        for await case .audioArrived(let time) in events { return time }
        return nil
    }

    private func finishedSeconds() throws -> Double {
        guard let file = sink.takeFile() else {
            Issue.record("the sink held no file")
            return -1
        }
        return Double(try file.finish()) / Double(RecordingFormat.bytesPerSecond)
    }
}
