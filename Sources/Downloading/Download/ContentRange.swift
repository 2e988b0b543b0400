/// A `Content-Range` header of a 206 answer: `bytes 1000-1999/5000`, or `bytes 1000-1999/*` when the
/// server does not know the whole size.
struct ContentRange: Equatable {
    /// The offset of the body's first byte in the whole document.
    let first: Int64
    /// The offset of the body's last byte.
    let last: Int64
    /// The whole document's size; `nil` for `*`.
    let completeLength: Int64?

    /// Reads the header's value; `nil` for anything but a satisfied byte range (`bytes */5000` included).
    init?(headerValue: some StringProtocol) {
        guard headerValue.hasPrefix("bytes ") else { return nil }
        let parts = headerValue.dropFirst("bytes ".count).split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2 else { return nil }
        let offsets = parts[0].split(separator: "-", omittingEmptySubsequences: false)
        guard offsets.count == 2, let first = Int64(offsets[0]), let last = Int64(offsets[1]), first <= last else { return nil }
        if parts[1] == "*" {
            completeLength = nil
        } else {
            guard let length = Int64(parts[1]), length > last else { return nil }
            completeLength = length
        }
        self.first = first
        self.last = last
    }
}
