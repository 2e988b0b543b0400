import Recording

/// Where MPRIS's `Seek` and `SetPosition` take the memo, in microseconds. Any peer sends the numbers, so the
/// arithmetic saturates rather than overflows.
extension MemoPlaybackSnapshot {
    /// `Seek(offset)` from `position`: before the start is the start; past the end is the end, where the playback
    /// ends as `Next` ends it with no track after this one.
    func seekTarget(from position: Int64, by offset: Int64) -> Int64 {
        let (sum, overflowed) = position.addingReportingOverflow(offset)
        let target = overflowed ? (offset < 0 ? Int64.min : Int64.max) : sum
        return max(0, min(target, length.microseconds))
    }

    /// `SetPosition(position)`: nil, so nothing happens, for a position before the start or past the end.
    func setTarget(_ position: Int64) -> Int64? {
        (0...max(0, length.microseconds)).contains(position) ? position : nil
    }
}
