/// SHA-1 (RFC 3174), the checksum whisper.cpp publishes for its model files.
///
/// Like `MD5`, a guard against damage in transit: the sums come with the files' list, from Notula's own code.
public struct SHA1: BlockHashFunction {
    private var state: (UInt32, UInt32, UInt32, UInt32, UInt32) = (0x6745_2301, 0xefcd_ab89, 0x98ba_dcfe, 0x1032_5476, 0xc3d2_e1f0)

    public static let isLengthBigEndian = true

    public init() {}

    public var digest: [UInt8] {
        [state.0, state.1, state.2, state.3, state.4].flatMap { word in
            (0..<4).map { UInt8(truncatingIfNeeded: word >> (24 - 8 * $0)) }
        }
    }

    /// Runs the 80 steps over one 64-byte block, the message schedule kept in 16 words.
    public mutating func compress(_ block: UnsafeRawPointer) {
        var w = (0..<16).map { UInt32(bigEndian: block.loadUnaligned(fromByteOffset: $0 &* 4, as: UInt32.self)) }
        var (a, b, c, d, e) = state
        for step in 0..<80 {
            if step >= 16 {
                let mixed = w[(step &- 3) & 15] ^ w[(step &- 8) & 15] ^ w[(step &- 14) & 15] ^ w[step & 15]
                w[step & 15] = mixed << 1 | mixed >> 31
            }
            let (f, k): (UInt32, UInt32) =
                switch step {
                case 0..<20: ((b & c) | (~b & d), 0x5a82_7999)
                case 20..<40: (b ^ c ^ d, 0x6ed9_eba1)
                case 40..<60: ((b & c) | (b & d) | (c & d), 0x8f1b_bcdc)
                default: (b ^ c ^ d, 0xca62_c1d6)
                }
            let next = (a << 5 | a >> 27) &+ f &+ e &+ k &+ w[step & 15]
            (e, d, c, b, a) = (d, c, b << 30 | b >> 2, a, next)
        }
        state = (state.0 &+ a, state.1 &+ b, state.2 &+ c, state.3 &+ d, state.4 &+ e)
    }
}
