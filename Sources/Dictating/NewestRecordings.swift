import Recording

extension Dictionary where Key == RecordingID {
    /// What is kept per recording until it is asked for, bounded: a recording discarded while processed is never
    /// asked for, so past `most` entries the oldest recordings' go.
    mutating func keepNewest(_ most: Int) {
        while count > most, let oldest = keys.min(by: { $0.rawValue < $1.rawValue }) {
            self[oldest] = nil
        }
    }
}
