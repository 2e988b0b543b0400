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
    /// On a revised line: the final utterance it writes again, and the Whisper model that wrote it.
    public var utterance: Int?
    public var model: String?

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
        let chunks = pipeChunks(descriptor)
        Task {
            var buffered: [UInt8] = []
            for await chunk in chunks {
                buffered += chunk
                while let newline = buffered.firstIndex(of: UInt8(ascii: "\n")) {
                    let line = Data(buffered[..<newline])
                    buffered.removeFirst(newline + 1)
                    if let decoded = try? JSONDecoder().decode(LiveTextLine.self, from: line) { continuation.yield(decoded) }
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
