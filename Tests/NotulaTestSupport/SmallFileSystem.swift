import Foundation

/// A tmpfs of a few kilobytes mounted over a folder (made 0700): a disk that fills in seconds.
public final class SmallFileSystem {
    public let folder: URL
    private var mounted = false

    public init(at folder: URL, kilobytes: Int) throws {
        self.folder = folder
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        try output(of: "mount", "-t", "tmpfs", "-o", "size=\(kilobytes)k,mode=0700", "tmpfs", folder.path)
        mounted = true
    }

    /// Lazily: the service may still hold a file open there.
    public func unmount() {
        guard mounted else { return }
        mounted = false
        _ = try? run("umount", ["-l", folder.path])
    }

    deinit { unmount() }
}
