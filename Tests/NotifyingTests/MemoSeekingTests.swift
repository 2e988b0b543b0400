import DBus
import Testing

@testable import Notifying

@Suite("Where MPRIS's Seek and SetPosition take the memo playing")
struct MemoSeekingTests {
    /// A memo of 3.5 s.
    private let memo = MemoPlaybackSnapshot(
        trackPath: ObjectPath("/org/notula/Notula1/Memos/1")!, title: "Memo 2026-12-01 18:25", length: .milliseconds(3500), paused: false)

    @Test func seekIsRelativeAndStopsAtTheStartAndTheEnd() {
        #expect(memo.seekTarget(from: 1_000_000, by: 500_000) == 1_500_000)
        #expect(memo.seekTarget(from: 1_000_000, by: -400_000) == 600_000)
        #expect(memo.seekTarget(from: 1_000_000, by: -2_000_000) == 0, "before the start is the start")
        #expect(memo.seekTarget(from: 1_000_000, by: 9_000_000) == 3_500_000, "past the end is the end")
    }

    @Test func seekByAnyNumberAPeerSendsNeitherOverflowsNorLeavesTheMemo() {
        #expect(memo.seekTarget(from: 3_500_000, by: .max) == 3_500_000)
        #expect(memo.seekTarget(from: 0, by: .min) == 0)
        #expect(memo.seekTarget(from: 1, by: .min) == 0)
        #expect(memo.seekTarget(from: .max, by: .max) == 3_500_000)
        #expect(memo.seekTarget(from: .max, by: .min) == 0)
    }

    @Test func setPositionOutsideTheMemoIsIgnored() {
        #expect(memo.setTarget(0) == 0)
        #expect(memo.setTarget(2_000_000) == 2_000_000)
        #expect(memo.setTarget(3_500_000) == 3_500_000)
        #expect(memo.setTarget(-1) == nil)
        #expect(memo.setTarget(.min) == nil)
        #expect(memo.setTarget(3_500_001) == nil)
        #expect(memo.setTarget(.max) == nil)
    }
}
