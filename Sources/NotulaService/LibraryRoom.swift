import Audio
import Glibc
import Library

/// The bytes a recording leaves free for the memo library's reserve: all of it when the recordings
/// and the library are on one disk, which a recording could otherwise fill to the last block.
func roomKeptForLibrary(_ paths: Paths) -> UInt64 {
    guard let recordings = device(of: paths.recordings), recordings == device(of: paths.data) else { return 0 }
    return MemoStore.reserveSize(inFolder: paths.data)
}

/// The file system of `path`, or of the nearest folder above it that exists.
private func device(of path: String) -> UInt64? {
    var status = stat()
    guard let folder = nearestExistingFolder(of: path), stat(folder, &status) == 0 else { return nil }
    return UInt64(status.st_dev)
}
