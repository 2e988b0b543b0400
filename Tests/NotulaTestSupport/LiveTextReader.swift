import DBus
import Foundation

/// One line of `WatchText`'s pipe, as a client reads it.
public struct LiveTextLine: Decodable, Sendable, Equatable {
    public struct Word: Decodable, Sendable, Equatable {
        public let word: String
        public let start: Double
        public let end: Double
        public let conf: Double
    }

    public let kind: String
    public let text: String?
    public let start: Double?
    public let end: Double?
    public let words: [Word]?
    public let memo: String?

    public init(
        kind: String, text: String? = nil, start: Double? = nil, end: Double? = nil, words: [Word]? = nil, memo: String? = nil
    ) {
        self.kind = kind
        self.text = text
        self.start = start
        self.end = end
        self.words = words
        self.memo = memo
    }
}

/// A client's reader of the live text: the pipe `WatchText` handed it, read line by line on a thread of its own (a
/// read blocks), until the pipe ends.
public final class LiveTextReader: Sendable {
    /// Each line, decoded, in order; the stream ends with the pipe.
    public let lines: AsyncStream<LiveTextLine>
    /// The read end, which the reader owns.
    public let descriptor: Int32

    /// Reads `descriptor` (a copy is taken: the message's own closes with it).
    public init(_ received: FileDescriptor) {
        let descriptor = dup(received.rawValue)
        self.descriptor = descriptor
        let (lines, continuation) = AsyncStream.makeStream(of: LiveTextLine.self)
        self.lines = lines
        Thread.detachNewThread {
            // read(2) itself: FileHandle's read(upToCount:) waits for the whole count, which a pipe of short lines
            // may never hold.
            var buffered = Data()
            var chunk = [UInt8](repeating: 0, count: 4096)
            while true {
                let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
                if count < 0, errno == EINTR { continue }
                guard count > 0 else { break }
                buffered += chunk[0..<count]
                while let newline = buffered.firstIndex(of: UInt8(ascii: "\n")) {
                    let line = buffered[buffered.startIndex..<newline]
                    buffered = Data(buffered[buffered.index(after: newline)...])
                    if let decoded = try? JSONDecoder().decode(LiveTextLine.self, from: Data(line)) { continuation.yield(decoded) }
                }
            }
            continuation.finish()
        }
    }

    /// Asks `service` for the live text.
    public static func watching(_ service: ServiceUnderTest) async throws -> LiveTextReader {
        let reply = try await service.recorder(.watchText)
        guard case .unixFD(let received)? = reply.body.first else { throw UnexpectedReply(body: reply.body) }
        return LiveTextReader(received)
    }

    /// The lines up to and including the first `end`.
    public func linesUntilEnd() async -> [LiveTextLine] {
        var read: [LiveTextLine] = []
        for await line in lines {
            read.append(line)
            if line.kind == "end" { break }
        }
        return read
    }
}

public struct UnexpectedReply: Error {
    public let body: [Value]
}
