import Glibc

/// `path` if it exists, else the nearest folder above it that does: where a folder not made yet will be,
/// for asking about its file system. Nil when no folder up the path can be read.
public func nearestExistingFolder(of path: String) -> String? {
    var folder = path
    var status = stat()
    while stat(folder, &status) != 0 {
        guard errno == ENOENT, let parent = folder.lastIndex(of: "/"), parent != folder.startIndex else { return nil }
        folder = String(folder[..<parent])
    }
    return folder
}
