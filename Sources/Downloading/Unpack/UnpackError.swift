/// Why an archive could not be unpacked. Nothing of it is left on disk when one is thrown.
///
/// Each case carries what the system or libarchive said, and `message` puts it in a sentence for the user.
public enum UnpackError: Error, Sendable, Equatable {
    /// The archive cannot be opened, or is not a zip or tar archive, or is truncated or corrupt;
    /// `reason` is the system's or libarchive's own words.
    case unreadable(archive: String, reason: String)
    /// An entry that could write outside the folder, or is not a file, folder or symbolic link;
    /// `reason` says which rule it breaks.
    case unsafeEntry(name: String, reason: String)
    /// The entries add up to more than `limit` bytes: a damaged archive or a zip bomb.
    case tooLarge(limit: Int64)
    /// The disk holding the folder is full, or the user's quota is used up.
    case diskFull(folder: String)
    /// The disk holding the folder came down to `free` bytes, under the `keptFree` the unpack leaves.
    case noRoom(folder: String, free: Int64, keptFree: Int64)
    /// Writing `path` failed; `reason` is the system's or libarchive's own words.
    case fileError(path: String, reason: String)
    /// The folder to unpack into exists already.
    case folderExists(String)
    /// The caller asked to stop.
    case cancelled

    /// What went wrong, for the user.
    public var message: String {
        switch self {
        case .unreadable(let archive, let reason):
            return "Cannot read the archive \(archive): \(reason)."
        case .unsafeEntry(let name, let reason):
            return "\(reason): \(name)"
        case .tooLarge(let limit):
            return "The archive unpacks to more than \(limit) bytes, the most allowed: it is damaged or not what it claims to be."
        case .diskFull(let folder):
            return "There is no space left on the disk holding \(folder). Free some space and try again."
        case .noRoom(let folder, let free, let keptFree):
            return "Unpacking into \(folder) stopped with \(DownloadError.text(forByteCount: free)) free on its disk, under the "
                + "\(DownloadError.text(forByteCount: keptFree)) kept free."
        case .fileError(let path, let reason):
            return "Cannot write \(path): \(reason)."
        case .folderExists(let folder):
            return "Cannot unpack into \(folder): it exists already."
        case .cancelled:
            return "Unpacking was cancelled."
        }
    }
}
