import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Watches folders with inotify, for what a reader of them could have seen: every file made in
/// them, and every change of a file's mode after it was made (a chmod after the write leaves a
/// moment in which the file had another mode). The kernel queues the events, so nothing is missed
/// however quickly the writer goes.
public final class FileWatch {
    /// A file made in a watched folder, or renamed into one.
    public struct Made: Equatable, CustomStringConvertible {
        public let path: String
        /// Its mode as read when the event was (a file gone meanwhile: nil).
        public let mode: Int?
        public var description: String { "\(path) \(mode.map { String($0, radix: 8) } ?? "gone")" }
    }

    private let descriptor: Int32
    private var folders: [Int32: String] = [:]
    /// Files made (or renamed in), in order.
    public private(set) var made: [Made] = []
    /// Files whose mode or owner changed after they were made.
    public private(set) var changedAttributes: [String] = []

    /// Watches `folders`, which must exist.
    public init(_ folders: [String]) throws {
        descriptor = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard descriptor >= 0 else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
        for folder in folders {
            let watch = inotify_add_watch(descriptor, folder, UInt32(IN_CREATE | IN_MOVED_TO | IN_ATTRIB))
            guard watch >= 0 else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
            self.folders[watch] = folder
        }
    }

    deinit { close(descriptor) }

    /// Reads the events queued so far; `made` and `changedAttributes` include them afterwards.
    public func read() {
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = buffer.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            guard count > 0 else { return }
            var offset = 0
            while offset < count {
                let (watch, mask, nameLength) = buffer.withUnsafeBytes { bytes in
                    let event = bytes.loadUnaligned(fromByteOffset: offset, as: inotify_event.self)
                    return (event.wd, event.mask, Int(event.len))
                }
                let nameStart = offset + MemoryLayout<inotify_event>.size
                let name = String(decoding: buffer[nameStart..<(nameStart + nameLength)].prefix { $0 != 0 }, as: UTF8.self)
                offset = nameStart + nameLength
                guard let folder = folders[watch], mask & UInt32(IN_ISDIR) == 0 else { continue }
                let path = folder + "/" + name
                if mask & UInt32(IN_ATTRIB) != 0 {
                    changedAttributes.append(path)
                } else {
                    var status = stat()
                    made.append(Made(path: path, mode: lstat(path, &status) == 0 ? Int(status.st_mode & 0o7777) : nil))
                }
            }
        }
    }
}
