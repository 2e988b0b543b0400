import FoundationEssentials
import Glibc
import Synchronization

/// A file of the user's that the service reads again whenever it changed since the last read: `replacements.tsv`,
/// `vocabulary.txt`. No file is the empty content.
///
/// Only a regular file of at most `largestFile` bytes is read: a FIFO or a device put there is opened without
/// waiting and refused, and so is a file past the cap, whole, with the reason told once. A symbolic link is
/// followed (dotfile managers link the config), what it leads to checked as the file itself.
public final class WatchedFile<Content: Sendable>: Sendable {
    /// Thousands of lines of replacements are a few hundred kB.
    public static var largestFile: Int { 1 << 20 }

    private struct Read {
        var stamp: Stamp?
        var content: Content
    }

    /// What tells a changed file: which file it is, its modification time and size.
    private struct Stamp: Equatable {
        var device: UInt
        var inode: UInt
        var seconds: Int
        var nanoseconds: Int
        var size: Int64
    }

    public let path: String
    private let empty: Content
    private let parse: @Sendable (String) -> (Content, [SkippedLine])
    private let read: Mutex<Read>

    /// - Parameters:
    ///   - empty: the content of no file, or of one refused.
    ///   - parse: the content of the file's text, and the lines it skipped.
    public init(path: String, empty: Content, parse: @escaping @Sendable (String) -> (Content, [SkippedLine])) {
        self.path = path
        self.empty = empty
        self.parse = parse
        read = Mutex(Read(content: empty))
    }

    /// The content as the file says now; `problems` hears each bad line of a file read again, `refused` why a
    /// changed file is not read at all (then it is empty).
    /// The corresponding C functions are `open` (`O_NONBLOCK`), `fstat` and `read`.
    public func current(problems: (SkippedLine) -> Void, refused: (String) -> Void) -> Content {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY)
        defer { if descriptor >= 0 { close(descriptor) } }
        var status = stat()
        let stamp =
            descriptor >= 0 && fstat(descriptor, &status) == 0
            ? Stamp(
                device: UInt(status.st_dev), inode: UInt(status.st_ino), seconds: Int(status.st_mtim.tv_sec),
                nanoseconds: Int(status.st_mtim.tv_nsec), size: Int64(status.st_size)) : nil
        return read.withLock { read in
            guard stamp != read.stamp else { return read.content }
            read.stamp = stamp
            read.content = empty
            guard stamp != nil else { return empty }
            guard status.st_mode & S_IFMT == S_IFREG else {
                refused("not a regular file")
                return empty
            }
            guard status.st_size <= Self.largestFile, let bytes = Self.contents(of: descriptor) else {
                refused("larger than the \(Self.largestFile >> 20) MiB such a file may hold, or unreadable")
                return empty
            }
            let (content, found) = parse(String(decoding: bytes, as: UTF8.self))
            found.forEach(problems)
            read.content = content
            return content
        }
    }

    /// The file's bytes; nil when it cannot be read, or grew past `largestFile` since `fstat`.
    private static func contents(of descriptor: Int32) -> [UInt8]? {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let got = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if got < 0 && errno == EINTR { continue }
            guard got >= 0 else { return nil }
            if got == 0 { return bytes }
            bytes += chunk[..<got]
            guard bytes.count <= largestFile else { return nil }
        }
    }
}

/// `$XDG_CONFIG_HOME/notula/replacements.tsv`.
public typealias ReplacementsFile = WatchedFile<Replacements>

extension WatchedFile where Content == Replacements {
    public convenience init(path: String) { self.init(path: path, empty: .none, parse: Replacements.parse) }
}

/// A line of a user's file that was skipped, and why.
public struct SkippedLine: Sendable, Equatable, CustomStringConvertible {
    public let line: Int
    public let reason: String
    public var description: String { "line \(line): \(reason)" }
}
