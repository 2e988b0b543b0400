/// 16-bit little-endian bytes, whole or read in blocks of any length, as the engines take samples: floats in −1…1. A
/// sample split between two blocks is kept until its second byte comes; a last odd byte is no sample.
struct LittleEndianSamples {
    private var odd: UInt8?

    mutating func floats(of bytes: some Collection<UInt8>) -> [Float] {
        var floats: [Float] = []
        floats.reserveCapacity(bytes.count / 2 + 1)
        for byte in bytes {
            if let low = odd {
                floats.append(Float(Int16(bitPattern: UInt16(low) | UInt16(byte) << 8)) / 32_768)
                odd = nil
            } else {
                odd = byte
            }
        }
        return floats
    }
}
