import Glibc

/// A file that lives in memory only (`memfd_create`): a helper's text, and what it prints, never touch a disk, so a
/// dictation leaves nothing outside Notula's folders, and a full or slow disk cannot stop it. A file rather than a
/// pipe: writing the text can never block on a program that does not read, and a child forked to serve the clipboard
/// that keeps it open keeps nobody waiting for an end of file.
final class MemoryFile {
    /// Closed with the file.
    let descriptor: Int32

    /// An empty one (closed on exec: a child gets the copy made its standard input, output or error).
    /// - Throws: `ChildProcess.Errno` when the kernel refuses one.
    init() throws(ChildProcess.Errno) {
        guard let create = Self.create else { throw ChildProcess.Errno(code: ENOSYS) }
        let created = create("notula", Self.closeOnExec)
        guard created >= 0 else { throw ChildProcess.Errno(code: errno) }
        descriptor = created
    }

    deinit { close(descriptor) }

    /// One holding `text`, to be read from its start.
    convenience init(holding text: String) throws(ChildProcess.Errno) {
        try self.init(holding: Array(text.utf8))
    }

    /// One holding `bytes`, to be read from its start.
    convenience init(holding bytes: [UInt8]) throws(ChildProcess.Errno) {
        try self.init()
        var written = 0
        while written < bytes.count {
            let count = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress! + written, $0.count - written) }
            if count == -1 && errno == EINTR { continue }
            guard count > 0 else { throw ChildProcess.Errno(code: errno) }
            written += count
        }
        lseek(descriptor, 0, SEEK_SET)
    }

    /// Up to `limit` bytes from its start, decoded as UTF-8.
    func read(upTo limit: Int) -> String { String(decoding: bytes(upTo: limit), as: UTF8.self) }

    /// Up to `limit` bytes from its start, whatever offset a writer has left it at.
    func bytes(upTo limit: Int) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: limit)
        var count = 0
        while count < limit {
            let got = bytes.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress! + count, limit - count, off_t(count)) }
            if got == -1 && errno == EINTR { continue }
            guard got > 0 else { break }
            count += got
        }
        return Array(bytes[..<count])
    }

    /// glibc's `memfd_create` (2.27 and later), which Swift's Glibc module does not declare, as it does not `pipe2`.
    private static let create = dlsym(nil, "memfd_create").map {
        unsafeBitCast($0, to: (@convention(c) (UnsafePointer<CChar>, UInt32) -> Int32).self)
    }
    /// `MFD_CLOEXEC`, from linux/memfd.h.
    private static let closeOnExec: UInt32 = 1
}
