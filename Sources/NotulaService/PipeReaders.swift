import DBus
import Recording
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// `pipe2` of <unistd.h>, which the Glibc module leaves out (it is a GNU extension): the pipe close-on-exec from its
/// creation, before a helper started by another thread could inherit it.
@_silgen_name("pipe2") private func pipe2(_ descriptors: UnsafeMutablePointer<Int32>, _ flags: Int32) -> Int32
/// `fcntl`'s command that sizes a pipe (<linux/fcntl.h>), another the Glibc module leaves out.
private let setPipeSize: Int32 = 1031

/// The clients that read a stream of notulad's on pipes of their own (`WatchText`, `OpenAudio`), each in the form it
/// asked for. A reader that falls `mostUnread` behind is cut off, so that none slows the writer or another reader.
final class PipeReaders<Form: Hashable & Sendable>: Sendable {
    /// What a reader may leave unread: its pipe holds that much, and a write it has no room for cuts it off.
    static var mostUnread: Int { 256 * 1024 }

    private struct Reader {
        /// The pipe's write end, non-blocking.
        let descriptor: Int32
        let form: Form
        /// Who asked, for the log.
        let peer: String
    }

    /// What is read, for the log: "the live text".
    private let stream: String
    private let mostReaders: Int
    private let readers = Mutex([Reader]())

    init(of stream: String, mostReaders: Int) {
        self.stream = stream
        self.mostReaders = mostReaders
    }

    var isEmpty: Bool { readers.withLock { $0.isEmpty } }

    /// The forms somebody reads now.
    var forms: Set<Form> { readers.withLock { Set($0.map(\.form)) } }

    /// A new reader for `peer`: the read end of a pipe (close-on-exec), written until the reader closes it.
    /// - Throws: `LimitsExceeded` past `mostReaders`, `Failed` when no pipe can be made.
    func newReader(for peer: String, form: Form) throws(BusError) -> FileDescriptor {
        try readers.withLock { readers throws(BusError) in
            // A reader that closed its end while nothing was written is noticed here, and makes room.
            readers.removeAll { reader in
                guard Self.isClosed(reader.descriptor) else { return false }
                forget(reader, because: "went away")
                return true
            }
            guard readers.count < mostReaders else {
                throw BusError(.limitsExceeded, "\(mostReaders) readers follow \(stream) already; close one first")
            }
            var ends: [Int32] = [-1, -1]
            guard pipe2(&ends, O_CLOEXEC) == 0 else {
                throw BusError(.failed, "No pipe for \(stream): \(String(cString: strerror(errno)))")
            }
            // Room for what a reader may leave unread, so a write that does not fit means it fell behind. Only the write
            // end is non-blocking: the reader gets its end as a plain blocking one.
            if fcntl(ends[1], setPipeSize, Int32(Self.mostUnread)) < 0 {
                Log.warning("The pipe for \(stream) keeps its size (\(String(cString: strerror(errno)))): a reader is cut off sooner")
            }
            _ = fcntl(ends[1], F_SETFL, O_NONBLOCK)
            readers.append(Reader(descriptor: ends[1], form: form, peer: peer))
            Log.info("\(peer) follows \(stream)")
            return FileDescriptor(owning: ends[0])
        }
    }

    /// Writes to each reader its form's bytes (none where `bytes` has none), forgetting the readers that went away or
    /// fell too far behind.
    func send(_ bytes: (Form) -> [UInt8]?) {
        readers.withLock { readers in
            readers.removeAll { reader in
                guard let written = bytes(reader.form), !written.isEmpty else { return false }
                switch Self.write(written, to: reader.descriptor) {
                case .all: return false
                case .gone: forget(reader, because: "went away")
                case .behind: forget(reader, because: "left \(Self.mostUnread / 1024) KiB unread: cut off")
                }
                return true
            }
        }
    }

    /// Writes `bytes` to every reader.
    func send(_ bytes: [UInt8]) { send { _ in bytes } }

    private func forget(_ reader: Reader, because reason: String) {
        Log.info("\(reader.peer), reading \(stream), \(reason)")
        close(reader.descriptor)
    }

    private enum Written { case all, gone, behind }

    private static func write(_ bytes: [UInt8], to descriptor: Int32) -> Written {
        var offset = 0
        while offset < bytes.count {
            let count = bytes[offset...].withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
            if count > 0 {
                offset += count
            } else if count < 0, errno == EINTR {
                continue
            } else if count < 0, errno == EAGAIN {
                return .behind
            } else {
                return .gone
            }
        }
        return .all
    }

    /// Whether the reader closed its end: the write end then polls as an error.
    private static func isClosed(_ descriptor: Int32) -> Bool {
        var polled = pollfd(fd: descriptor, events: 0, revents: 0)
        return poll(&polled, 1, 0) == 1 && polled.revents & Int16(POLLERR) != 0
    }
}
