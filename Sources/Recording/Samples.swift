extension UnsafeRawBufferPointer {
    /// Each signed 16-bit little-endian sample of the bytes, in order, as the capture hands them; a trailing odd byte
    /// is left out.
    public func forEachSample(_ body: (Int16) -> Void) {
        for offset in stride(from: 0, to: count - 1, by: 2) {
            body(Int16(littleEndian: loadUnaligned(fromByteOffset: offset, as: Int16.self)))
        }
    }
}
