import Glibc
import Library

/// The bytes a recording leaves free for the memo library's reserve: all of it when the recordings
/// and the library are on one disk, which a recording could otherwise fill to the last block.
func roomKeptForLibrary(_ paths: Paths) -> UInt64 {
    guard let recordings = device(of: paths.recordings), recordings == device(of: paths.data) else { return 0 }
    return MemoStore.reserveSize(inFolder: paths.data)
}

/// The file system of `path`, or of its nearest folder that exists.
private func device(of path: String) -> UInt64? {
    var folder = path
    var status = stat()
    while stat(folder, &status) != 0 {
        guard let parent = folder.lastIndex(of: "/"), parent != folder.startIndex else { return nil }
        folder = String(folder[..<parent])
    }
    return UInt64(status.st_dev)
}
