import Glibc

/// MD5 (RFC 1321), the checksum Vosk's catalog gives for each model.
///
/// Written here rather than taken from OpenSSL: a page of code against a dependency, for a checksum that
/// guards against damage in transit, not against an attacker (the checksum comes from the file's own server).
/// The rounds are written out, so that a 50 MB file takes a fraction of a second.
public struct MD5: BlockHashFunction {
    private var a: UInt32 = 0x6745_2301
    private var b: UInt32 = 0xefcd_ab89
    private var c: UInt32 = 0x98ba_dcfe
    private var d: UInt32 = 0x1032_5476

    public static let isLengthBigEndian = false

    public init() {}

    public var digest: [UInt8] {
        [a, b, c, d].flatMap { word in (0..<4).map { UInt8(truncatingIfNeeded: word >> (8 * $0)) } }
    }

    /// Runs the four rounds over one 64-byte block.
    public mutating func compress(_ block: UnsafeRawPointer) {
        @inline(__always) func x(_ index: Int) -> UInt32 {
            UInt32(littleEndian: block.loadUnaligned(fromByteOffset: index &* 4, as: UInt32.self))
        }
        var a = a
        var b = b
        var c = c
        var d = d

        step(&a, b, c, d, x(0), 7, 0xd76a_a478, f)
        step(&d, a, b, c, x(1), 12, 0xe8c7_b756, f)
        step(&c, d, a, b, x(2), 17, 0x2420_70db, f)
        step(&b, c, d, a, x(3), 22, 0xc1bd_ceee, f)
        step(&a, b, c, d, x(4), 7, 0xf57c_0faf, f)
        step(&d, a, b, c, x(5), 12, 0x4787_c62a, f)
        step(&c, d, a, b, x(6), 17, 0xa830_4613, f)
        step(&b, c, d, a, x(7), 22, 0xfd46_9501, f)
        step(&a, b, c, d, x(8), 7, 0x6980_98d8, f)
        step(&d, a, b, c, x(9), 12, 0x8b44_f7af, f)
        step(&c, d, a, b, x(10), 17, 0xffff_5bb1, f)
        step(&b, c, d, a, x(11), 22, 0x895c_d7be, f)
        step(&a, b, c, d, x(12), 7, 0x6b90_1122, f)
        step(&d, a, b, c, x(13), 12, 0xfd98_7193, f)
        step(&c, d, a, b, x(14), 17, 0xa679_438e, f)
        step(&b, c, d, a, x(15), 22, 0x49b4_0821, f)

        step(&a, b, c, d, x(1), 5, 0xf61e_2562, g)
        step(&d, a, b, c, x(6), 9, 0xc040_b340, g)
        step(&c, d, a, b, x(11), 14, 0x265e_5a51, g)
        step(&b, c, d, a, x(0), 20, 0xe9b6_c7aa, g)
        step(&a, b, c, d, x(5), 5, 0xd62f_105d, g)
        step(&d, a, b, c, x(10), 9, 0x0244_1453, g)
        step(&c, d, a, b, x(15), 14, 0xd8a1_e681, g)
        step(&b, c, d, a, x(4), 20, 0xe7d3_fbc8, g)
        step(&a, b, c, d, x(9), 5, 0x21e1_cde6, g)
        step(&d, a, b, c, x(14), 9, 0xc337_07d6, g)
        step(&c, d, a, b, x(3), 14, 0xf4d5_0d87, g)
        step(&b, c, d, a, x(8), 20, 0x455a_14ed, g)
        step(&a, b, c, d, x(13), 5, 0xa9e3_e905, g)
        step(&d, a, b, c, x(2), 9, 0xfcef_a3f8, g)
        step(&c, d, a, b, x(7), 14, 0x676f_02d9, g)
        step(&b, c, d, a, x(12), 20, 0x8d2a_4c8a, g)

        step(&a, b, c, d, x(5), 4, 0xfffa_3942, h)
        step(&d, a, b, c, x(8), 11, 0x8771_f681, h)
        step(&c, d, a, b, x(11), 16, 0x6d9d_6122, h)
        step(&b, c, d, a, x(14), 23, 0xfde5_380c, h)
        step(&a, b, c, d, x(1), 4, 0xa4be_ea44, h)
        step(&d, a, b, c, x(4), 11, 0x4bde_cfa9, h)
        step(&c, d, a, b, x(7), 16, 0xf6bb_4b60, h)
        step(&b, c, d, a, x(10), 23, 0xbebf_bc70, h)
        step(&a, b, c, d, x(13), 4, 0x289b_7ec6, h)
        step(&d, a, b, c, x(0), 11, 0xeaa1_27fa, h)
        step(&c, d, a, b, x(3), 16, 0xd4ef_3085, h)
        step(&b, c, d, a, x(6), 23, 0x0488_1d05, h)
        step(&a, b, c, d, x(9), 4, 0xd9d4_d039, h)
        step(&d, a, b, c, x(12), 11, 0xe6db_99e5, h)
        step(&c, d, a, b, x(15), 16, 0x1fa2_7cf8, h)
        step(&b, c, d, a, x(2), 23, 0xc4ac_5665, h)

        step(&a, b, c, d, x(0), 6, 0xf429_2244, i)
        step(&d, a, b, c, x(7), 10, 0x432a_ff97, i)
        step(&c, d, a, b, x(14), 15, 0xab94_23a7, i)
        step(&b, c, d, a, x(5), 21, 0xfc93_a039, i)
        step(&a, b, c, d, x(12), 6, 0x655b_59c3, i)
        step(&d, a, b, c, x(3), 10, 0x8f0c_cc92, i)
        step(&c, d, a, b, x(10), 15, 0xffef_f47d, i)
        step(&b, c, d, a, x(1), 21, 0x8584_5dd1, i)
        step(&a, b, c, d, x(8), 6, 0x6fa8_7e4f, i)
        step(&d, a, b, c, x(15), 10, 0xfe2c_e6e0, i)
        step(&c, d, a, b, x(6), 15, 0xa301_4314, i)
        step(&b, c, d, a, x(13), 21, 0x4e08_11a1, i)
        step(&a, b, c, d, x(4), 6, 0xf753_7e82, i)
        step(&d, a, b, c, x(11), 10, 0xbd3a_f235, i)
        step(&c, d, a, b, x(2), 15, 0x2ad7_d2bb, i)
        step(&b, c, d, a, x(9), 21, 0xeb86_d391, i)

        self.a &+= a
        self.b &+= b
        self.c &+= c
        self.d &+= d
    }
}

/// One of the 64 operations: `a = b + ((a + F(b, c, d) + x + t) <<< s)`.
@inline(__always)
private func step(
    _ a: inout UInt32, _ b: UInt32, _ c: UInt32, _ d: UInt32, _ x: UInt32, _ s: UInt32, _ t: UInt32,
    _ function: (UInt32, UInt32, UInt32) -> UInt32
) {
    let sum = a &+ function(b, c, d) &+ x &+ t
    a = b &+ (sum &<< s | sum &>> (32 &- s))
}

// The auxiliary functions of the four rounds.
@inline(__always) private func f(_ x: UInt32, _ y: UInt32, _ z: UInt32) -> UInt32 { (x & y) | (~x & z) }
@inline(__always) private func g(_ x: UInt32, _ y: UInt32, _ z: UInt32) -> UInt32 { (x & z) | (y & ~z) }
@inline(__always) private func h(_ x: UInt32, _ y: UInt32, _ z: UInt32) -> UInt32 { x ^ y ^ z }
@inline(__always) private func i(_ x: UInt32, _ y: UInt32, _ z: UInt32) -> UInt32 { y ^ (~z | x) }
