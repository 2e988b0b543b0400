import FoundationEssentials
import Glibc
import Synchronization

/// `$XDG_CONFIG_HOME/notula/replacements.tsv`, read again whenever it changed since the last read; no file is
/// no replacements.
public final class ReplacementsFile: Sendable {
    private struct Read {
        var stamp: Stamp?
        var replacements = Replacements.none
    }

    /// What tells a changed file: its modification time and size.
    private struct Stamp: Equatable {
        var seconds: Int
        var nanoseconds: Int
        var size: Int64
    }

    public let path: String
    private let read = Mutex(Read())

    public init(path: String) { self.path = path }

    /// The replacements as the file says now; `problems` hears each bad line of a file read again.
    public func current(problems: (Replacements.Problem) -> Void) -> Replacements {
        var status = stat()
        let stamp =
            stat(path, &status) == 0
            ? Stamp(seconds: Int(status.st_mtim.tv_sec), nanoseconds: Int(status.st_mtim.tv_nsec), size: Int64(status.st_size)) : nil
        return read.withLock { read in
            guard stamp != read.stamp else { return read.replacements }
            read.stamp = stamp
            guard stamp != nil, let data = FileManager.default.contents(atPath: path) else {
                read.replacements = .none
                return .none
            }
            let (replacements, found) = Replacements.parse(String(decoding: data, as: UTF8.self))
            found.forEach(problems)
            read.replacements = replacements
            return replacements
        }
    }
}
