import FoundationEssentials
import Glibc

/// The bytes a folder's files hold. Links are followed, as models are often linked into place, but a folder is
/// counted once and the walk stops 8 levels down: a link loop or a link to `/` costs little.
enum FolderSize {
    static func bytes(of path: String) -> UInt64 {
        var seen: Set<[UInt64]> = []
        return bytes(of: path, depth: 0, seen: &seen)
    }

    private static func bytes(of path: String, depth: Int, seen: inout Set<[UInt64]>) -> UInt64 {
        var status = stat()
        guard stat(path, &status) == 0 else { return 0 }
        switch status.st_mode & S_IFMT {
        case S_IFREG: return UInt64(status.st_size)
        case S_IFDIR where depth < 8 && seen.insert([UInt64(status.st_dev), UInt64(status.st_ino)]).inserted:
            let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
            return names.reduce(0) { $0 &+ bytes(of: path + "/" + $1, depth: depth + 1, seen: &seen) }
        default: return 0
        }
    }
}
