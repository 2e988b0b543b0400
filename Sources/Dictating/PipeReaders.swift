import Dispatch
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
/// A reader that closes its end is noticed at once: a queue of its own sleeps in `poll` on the write ends while
/// anybody reads, so `Listeners` never names a program that stopped listening.
public final class PipeReaders<Form: Hashable & Sendable>: Sendable {
    /// What a reader may leave unread: its pipe holds that much, and a write it has no room for cuts it off.
    static var mostUnread: Int { 256 * 1024 }

    private struct Reader {
        /// Tells readers apart once a descriptor number is used again.
        let serial: UInt64
        /// The pipe's write end, non-blocking.
        let descriptor: Int32
        let form: Form
        let listener: Listener
    }

    private struct Readers {
        var all: [Reader] = []
        var serials: UInt64 = 0
        /// Whether the queue polls the write ends now.
        var watching = false
    }

    private let stream: ListenedStream
    private let mostReaders: Int
    private let readers = Mutex(Readers())
    private let changes: ListenerChanges?
    /// A byte written to `wakeUp` ends the watch's `poll`, so that it polls the readers of now.
    private let wakeUp: Int32
    private let woken: Int32
    private let watch = DispatchQueue(label: "org.notula.pipe-readers")

    init(of stream: ListenedStream, mostReaders: Int, changes: ListenerChanges? = nil) {
        self.stream = stream
        self.mostReaders = mostReaders
        self.changes = changes
        var ends: [Int32] = [-1, -1]
        precondition(pipe2(&ends, O_CLOEXEC | O_NONBLOCK) == 0, "cannot make the pipe readers' wake-up pipe")
        (woken, wakeUp) = (ends[0], ends[1])
    }

    deinit {
        close(woken)
        close(wakeUp)
    }

    var isEmpty: Bool { readers.withLock { $0.all.isEmpty } }

    /// The forms somebody reads now.
    var forms: Set<Form> { readers.withLock { Set($0.all.map(\.form)) } }

    /// Who reads now, first come first.
    var listeners: [Listener] { readers.withLock { $0.all.map(\.listener) } }

    /// A new reader for `caller`: the read end of a pipe (close-on-exec), written until the reader closes it; the caller
    /// owns it.
    /// - Throws: `ReaderError.tooMany` past `mostReaders`, `.noPipe` when no pipe can be made.
    func newReader(for caller: Caller, form: Form) throws(ReaderError) -> Int32 {
        let (reader, startWatch) = try readers.withLock { readers throws(ReaderError) in
            // A reader that closed its end a moment ago may not have been noticed yet, and makes room.
            removeClosed(from: &readers)
            guard readers.all.count < mostReaders else {
                throw ReaderError.tooMany("\(mostReaders) readers follow \(stream.described) already; close one first")
            }
            var ends: [Int32] = [-1, -1]
            guard pipe2(&ends, O_CLOEXEC) == 0 else {
                throw ReaderError.noPipe("No pipe for \(stream.described): \(String(cString: strerror(errno)))")
            }
            // Room for what a reader may leave unread, so a write that does not fit means it fell behind. Only the write
            // end is non-blocking: the reader gets its end as a plain blocking one.
            if fcntl(ends[1], setPipeSize, Int32(Self.mostUnread)) < 0 {
                Log.warning(
                    "The pipe for \(stream.described) keeps its size (\(String(cString: strerror(errno)))): a reader is cut off sooner")
            }
            _ = fcntl(ends[1], F_SETFL, O_NONBLOCK)
            readers.serials += 1
            readers.all.append(Reader(serial: readers.serials, descriptor: ends[1], form: form, listener: Listener(stream, caller: caller)))
            Log.info("\(caller.program) (\(caller.busName), process \(caller.processID)) follows \(stream.described)")
            let startWatch = !readers.watching
            readers.watching = true
            return (ends[0], startWatch)
        }
        if startWatch { watch.async { self.watchClosing() } } else { wake() }
        changes?.changed()
        return reader
    }

    /// Writes to each reader its form's bytes (none where `bytes` has none), forgetting the readers that went away or
    /// fell too far behind.
    func send(_ bytes: (Form) -> [UInt8]?) {
        let removed = readers.withLock { readers in
            let before = readers.all.count
            readers.all.removeAll { reader in
                guard let written = bytes(reader.form), !written.isEmpty else { return false }
                switch Self.write(written, to: reader.descriptor) {
                case .all: return false
                case .gone: forget(reader, because: "went away")
                case .behind: forget(reader, because: "left \(Self.mostUnread / 1024) KiB unread: cut off")
                }
                return true
            }
            return readers.all.count < before
        }
        // The watch stops polling the descriptors closed, which would keep their pipes open.
        if removed {
            wake()
            changes?.changed()
        }
    }

    /// Writes `bytes` to every reader.
    func send(_ bytes: [UInt8]) { send { _ in bytes } }

    /// The watch's loop, on its queue while anybody reads: sleeps in `poll` until a reader closes its end (its write
    /// end polls as an error) or the readers change, and ends once nobody reads.
    private func watchClosing() {
        while true {
            let watched = readers.withLock { readers -> [Int32]? in
                guard !readers.all.isEmpty else {
                    readers.watching = false
                    return nil
                }
                return readers.all.map(\.descriptor)
            }
            guard let watched else { return }
            var polled = ([woken] + watched).map { pollfd(fd: $0, events: $0 == woken ? Int16(POLLIN) : 0, revents: 0) }
            guard poll(&polled, nfds_t(polled.count), -1) > 0 else { continue }
            var byte: UInt8 = 0
            while read(woken, &byte, 1) > 0 {}
            guard polled.dropFirst().contains(where: { $0.revents != 0 }) else { continue }
            // Checked again under the lock, by reader: a number polled may have been closed and used again meanwhile.
            let removed = readers.withLock { readers in
                let before = readers.all.count
                removeClosed(from: &readers)
                return readers.all.count < before
            }
            if removed { changes?.changed() }
        }
    }

    private func removeClosed(from readers: inout Readers) {
        readers.all.removeAll { reader in
            guard Self.isClosed(reader.descriptor) else { return false }
            forget(reader, because: "went away")
            return true
        }
    }

    private func wake() {
        var byte: UInt8 = 1
        _ = Glibc.write(wakeUp, &byte, 1)
    }

    private func forget(_ reader: Reader, because reason: String) {
        let caller = reader.listener.caller
        Log.info("\(caller.program) (\(caller.busName)), reading \(stream.described), \(reason)")
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
        return poll(&polled, 1, 0) == 1 && polled.revents & Int16(POLLERR | POLLHUP) != 0
    }
}

/// Why no reader was added.
public enum ReaderError: Error, Equatable {
    /// As many read as may: one must close first.
    case tooMany(String)
    /// The system gave no pipe.
    case noPipe(String)

    public var message: String {
        switch self {
        case .tooMany(let message), .noPipe(let message): message
        }
    }
}
