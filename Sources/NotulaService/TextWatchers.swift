import DBus
import FoundationEssentials
import Memos
import Recording
import Speech
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// `pipe2` of <unistd.h>, which the Glibc module leaves out (it is a GNU extension): the pipe close-on-exec from its
/// creation, before a helper started by another thread could inherit it.
@_silgen_name("pipe2") private func pipe2(_ descriptors: UnsafeMutablePointer<Int32>, _ flags: Int32) -> Int32

/// The live text of recordings for the clients that asked (`WatchText`): one JSON object a line on each one's own
/// pipe, never in a signal the whole bus hears. A reader that does not keep up is cut off, so that none slows the
/// decoding, or another reader.
final class TextWatchers: LiveTextListener {
    /// Readers at once, all clients together: each costs a pipe and a copy of every line.
    static let mostReaders = 16
    /// What a reader may leave unread (on top of its pipe's own 64 KiB) before it is cut off.
    static let mostUnread = 256 * 1024

    private struct Reader {
        /// The pipe's write end, non-blocking.
        let descriptor: Int32
        /// Who asked, for the log.
        let peer: String
        /// What the pipe had no room for yet.
        var unsent: [UInt8] = []
    }

    private let watch = Mutex([Reader]())

    var isFollowed: Bool { watch.withLock { !$0.isEmpty } }

    /// A new reader for `peer`: the read end of a pipe (close-on-exec) on which the text of the recording under way
    /// and of those after it arrives, until the reader closes it.
    /// - Throws: `LimitsExceeded` when `mostReaders` read already, `Failed` when no pipe can be made.
    func newReader(for peer: String) throws(BusError) -> FileDescriptor {
        try watch.withLock { readers throws(BusError) in
            // A reader that closed its end while nothing was said is noticed here, and makes room.
            readers.removeAll { reader in
                guard Self.isClosed(reader.descriptor) else { return false }
                Log.info("The live text's reader \(reader.peer) went away")
                close(reader.descriptor)
                return true
            }
            guard readers.count < Self.mostReaders else {
                throw BusError(.limitsExceeded, "\(Self.mostReaders) readers follow the live text already; close one first")
            }
            var ends: [Int32] = [-1, -1]
            guard pipe2(&ends, O_CLOEXEC) == 0 else {
                throw BusError(.failed, "No pipe for the live text: \(String(cString: strerror(errno)))")
            }
            // Only the write end: the reader gets its end as a plain blocking one.
            _ = fcntl(ends[1], F_SETFL, O_NONBLOCK)
            readers.append(Reader(descriptor: ends[1], peer: peer))
            Log.info("\(peer) follows the live text")
            return FileDescriptor(owning: ends[0])
        }
    }

    /// Guesses come at most every `BlockRecognition.partialInterval`, from the decoding.
    func heard(_ speech: HeardSpeech, of recording: RecordingID) {
        watch.withLock { readers in
            switch speech {
            case .partial(let text): Self.send(LiveLine.partial(text), to: &readers)
            case .final(let utterance): Self.send(LiveLine.final(utterance), to: &readers)
            }
        }
    }

    func ended(_ recording: RecordingID) {
        watch.withLock { readers in
            Self.send(LiveLine.end(memo: MemoLibrary.path(of: recording.rawValue)), to: &readers)
        }
    }

    /// Writes `line` to every reader, forgetting those that went away or fell too far behind.
    private static func send(_ line: LiveLine, to readers: inout [Reader]) {
        guard !readers.isEmpty, let bytes = line.encoded else { return }
        var kept: [Reader] = []
        for var reader in readers {
            reader.unsent += bytes
            let outcome = flush(&reader)
            guard outcome != .kept else {
                kept.append(reader)
                continue
            }
            Log.info(
                outcome == .gone
                    ? "The live text's reader \(reader.peer) went away"
                    : "Cut \(reader.peer) off the live text: it left \(reader.unsent.count) bytes unread")
            close(reader.descriptor)
        }
        readers = kept
    }

    private enum Flushed { case kept, gone, behind }

    /// Writes what the pipe takes of `reader.unsent`.
    private static func flush(_ reader: inout Reader) -> Flushed {
        while !reader.unsent.isEmpty {
            let written = reader.unsent.withUnsafeBytes { write(reader.descriptor, $0.baseAddress, $0.count) }
            if written > 0 {
                reader.unsent.removeFirst(written)
            } else if written < 0, errno == EINTR {
                continue
            } else if written < 0, errno == EAGAIN {
                return reader.unsent.count > mostUnread ? .behind : .kept
            } else {
                return .gone
            }
        }
        return .kept
    }

    /// Whether the reader closed its end: the write end then polls as an error.
    private static func isClosed(_ descriptor: Int32) -> Bool {
        var polled = pollfd(fd: descriptor, events: 0, revents: 0)
        return poll(&polled, 1, 0) == 1 && polled.revents & Int16(POLLERR) != 0
    }
}

/// One line of the live text, as JSON.
enum LiveLine {
    case partial(String)
    case final(Transcript)
    case end(memo: ObjectPath)

    private struct Partial: Encodable {
        let kind = "partial"
        let text: String
    }

    private struct Final: Encodable {
        struct Word: Encodable {
            let word: String
            let start: Double
            let end: Double
            let conf: Double
        }
        let kind = "final"
        let text: String
        let start: Double
        let end: Double
        let words: [Word]
    }

    private struct End: Encodable {
        let kind = "end"
        let memo: String
    }

    /// The line's bytes with its newline; nil only if it cannot be encoded (a NaN timing), which is left out.
    var encoded: [UInt8]? {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let data: Data?
        switch self {
        case .partial(let text): data = try? encoder.encode(Partial(text: text))
        case .final(let utterance):
            data = try? encoder.encode(
                Final(
                    text: utterance.text, start: utterance.words.first?.start ?? 0, end: utterance.words.last?.end ?? 0,
                    words: utterance.words.map { Final.Word(word: $0.word, start: $0.start, end: $0.end, conf: $0.confidence) }))
        case .end(let memo): data = try? encoder.encode(End(memo: memo.rawValue))
        }
        return data.map { Array($0) + [UInt8(ascii: "\n")] }
    }
}
