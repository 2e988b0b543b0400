import Synchronization

/// The memory each model took when it was last loaded in this run, by name: written by the speech engines, read by the
/// Models object, so that a user sees what a model costs before choosing it again.
public final class ModelMemory: Sendable {
    private let measured = Mutex<[String: UInt64]>([:])

    public init() {}

    public var all: [String: UInt64] { measured.withLock { $0 } }

    public func record(_ bytes: UInt64, for model: String) {
        measured.withLock { $0[model] = bytes }
    }
}
