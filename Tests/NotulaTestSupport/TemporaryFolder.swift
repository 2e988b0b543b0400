import Foundation

/// A folder removed at the end of the test.
public final class TemporaryFolder {
    public let path: String

    public init() {
        path = FileManager.default.temporaryDirectory.appendingPathComponent("notula-test-\(UUID())").path
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    public func file(_ name: String) -> String { path + "/" + name }

    deinit { try? FileManager.default.removeItem(atPath: path) }
}
