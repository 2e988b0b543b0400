import DBus
import Foundation
import Recording

/// A client's reader of `OpenAudio`'s pipe: read on a thread of its own as the audio comes (a read blocks), taken by
/// one task in order.
public struct AudioPipeReader {
    /// The read end, which the reader owns.
    public let descriptor: Int32
    private var chunks: AsyncStream<[UInt8]>.Iterator
    private var pending: [UInt8] = []

    /// Reads `descriptor` (a copy is taken: the message's own closes with it).
    public init(_ received: FileDescriptor) {
        let descriptor = dup(received.rawValue)
        self.descriptor = descriptor
        chunks = pipeChunks(descriptor).makeAsyncIterator()
    }

    /// The next `count` bytes; fewer only when the pipe ended first.
    public mutating func bytes(_ count: Int) async -> [UInt8] {
        while pending.count < count, let chunk = await chunks.next() { pending += chunk }
        defer { pending.removeFirst(min(count, pending.count)) }
        return Array(pending.prefix(count))
    }

    /// The `vad` frames up to the one of no samples that marks a discarded recording, that one left out.
    public mutating func framesUntilDiscard() async -> [VoiceFrame] {
        var frames: [VoiceFrame] = []
        while true {
            let header = await bytes(12)
            guard header.count == 12 else { return frames }
            let count = Int(header[0..<4].reversed().reduce(UInt32(0)) { $0 << 8 | UInt32($1) })
            let start = header[4..<12].reversed().reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
            guard count > 0 else { return frames }
            frames.append(VoiceFrame(start: start, samples: Self.samples(await bytes(count * 2))))
        }
    }

    /// Signed 16-bit little-endian samples.
    public static func samples(_ bytes: [UInt8]) -> [Int16] {
        stride(from: 0, to: bytes.count - 1, by: 2).map { Int16(bitPattern: UInt16(bytes[$0]) | UInt16(bytes[$0 + 1]) << 8) }
    }
}

/// What `descriptor` delivers, a read at a time, read on a thread of its own (a read blocks) until the pipe ends. read(2)
/// itself: FileHandle's read(upToCount:) waits for the whole count, which a pipe of short lines may never hold.
func pipeChunks(_ descriptor: Int32) -> AsyncStream<[UInt8]> {
    let (chunks, continuation) = AsyncStream.makeStream(of: [UInt8].self)
    Thread.detachNewThread {
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { break }
            continuation.yield(Array(chunk[0..<count]))
        }
        continuation.finish()
    }
    return chunks
}
