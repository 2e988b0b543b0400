import Glibc

/// A hash built as MD5 and SHA-1 are: a state compressed 64 bytes at a time, the message padded with a 1 bit,
/// zeros and its length in bits.
public protocol BlockHashFunction {
    /// The initial state.
    init()
    /// Mixes one 64-byte block into the state.
    mutating func compress(_ block: UnsafeRawPointer)
    /// Whether the length ending the padding is big-endian (SHA-1) or little-endian (MD5).
    static var isLengthBigEndian: Bool { get }
    /// The state as the digest's bytes.
    var digest: [UInt8] { get }
}

extension BlockHashFunction {
    /// The hash of `bytes`, in lowercase hexadecimal.
    public static func hexDigest(of bytes: [UInt8]) -> String {
        var hash = BlockHash<Self>()
        bytes.withUnsafeBytes { hash.update($0) }
        return hash.finish()
    }

    /// The hash of a file's contents, read 64 KiB at a time, in lowercase hexadecimal.
    /// - Throws: `.fileError` with the system's reason when the file cannot be opened or read.
    public static func hexDigest(ofFile path: String) throws(DownloadError) -> String {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw .file(path, errno: errno) }
        defer { close(descriptor) }
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 * 1024, alignment: 16)
        defer { buffer.deallocate() }
        var hash = BlockHash<Self>()
        while true {
            let count = read(descriptor, buffer.baseAddress, buffer.count)
            if count < 0 && errno == EINTR { continue }
            guard count >= 0 else { throw .file(path, errno: errno) }
            if count == 0 { return hash.finish() }
            hash.update(UnsafeRawBufferPointer(rebasing: buffer[..<count]))
        }
    }
}

/// Feeds a `BlockHashFunction` whole blocks, read in place where the input allows.
struct BlockHash<Function: BlockHashFunction> {
    private var function = Function()
    /// The bytes of an incomplete block, waiting for the rest of it.
    private var pending: [UInt8] = []
    /// The bytes hashed so far.
    private var length: UInt64 = 0

    private static var blockSize: Int { 64 }

    init() {
        pending.reserveCapacity(Self.blockSize)
    }

    /// Hashes the next bytes.
    mutating func update(_ bytes: UnsafeRawBufferPointer) {
        length &+= UInt64(bytes.count)
        var rest = bytes[...]
        if !pending.isEmpty {
            let taken = min(Self.blockSize - pending.count, rest.count)
            pending.append(contentsOf: rest.prefix(taken))
            rest = rest.dropFirst(taken)
            guard pending.count == Self.blockSize else { return }
            pending.withUnsafeBytes { function.compress($0.baseAddress!) }
            pending.removeAll(keepingCapacity: true)
        }
        guard let base = bytes.baseAddress else { return }
        while rest.count >= Self.blockSize {
            function.compress(base + rest.startIndex)
            rest = rest.dropFirst(Self.blockSize)
        }
        pending.append(contentsOf: rest)
    }

    /// Pads the message (a 1 bit, zeros, the length in bits) and returns the digest in hexadecimal.
    mutating func finish() -> String {
        let bitLength = length &* 8
        var padding: [UInt8] = [0x80]
        padding += [UInt8](repeating: 0, count: (Self.blockSize + 56 - (pending.count + 1) % Self.blockSize) % Self.blockSize)
        let lengthBytes = (0..<8).map { UInt8(truncatingIfNeeded: bitLength >> (8 * $0)) }
        padding += Function.isLengthBigEndian ? lengthBytes.reversed() : lengthBytes
        padding.withUnsafeBytes { update($0) }
        return function.digest.map { String($0 >> 4, radix: 16) + String($0 & 0xf, radix: 16) }.joined()
    }
}
