import Memos
import Recording
import Testing

/// The library hears the capture's news on the capture's thread and handles it on its own executor: in the
/// order it came, or a discard's drop overtakes the start that writes the row, and a memo of a discarded
/// recording stays.
@Suite("The library takes the capture's news in order")
struct CaptureNewsOrderTests {
    @Test("20 recordings started and dropped at once leave no row; the one started last has its row")
    func startsAndDropsInOrder() async throws {
        let folder = try MemoFolder()
        let library = try await folder.library()

        let dropped = 20
        for index in 1...dropped {
            library.captureStarted(RecordingID("\(index)"), locale: "ko-KR")
            library.captureDropped(RecordingID("\(index)"))
        }
        let last = "\(dropped + 1)"
        library.captureStarted(RecordingID(last), locale: "ko-KR")

        // Once the last start is handled, every news before it is, when they are taken in order.
        #expect(await folder.events.wait(timeout: .seconds(120)) { $0.contains { $0.addedID == last } })
        #expect(await library.summary(last) != nil)
        #expect(await library.count == 1, "rows of dropped recordings are left")
        #expect(await library.current == last)
    }
}
