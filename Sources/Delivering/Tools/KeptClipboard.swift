import FoundationEssentials
import Glibc
import Recording

/// The user's clipboard kept on disk while a one-time paste holds the clipboard: `$XDG_RUNTIME_DIR/notula/clipboard`,
/// 0600 in a 0700 folder, written before the clipboard is taken and removed once it is put back, so that a notulad
/// killed in between puts it back at its next start.
///
/// Beside the contents it keeps a mark of the text Notula offered (a salted 64-bit FNV-1a digest, never the text),
/// to tell at that start whether the clipboard still holds Notula's offer or something copied since.
struct KeptClipboard: Sendable {
    let path: String

    /// The file in `runtimeFolder` (`$XDG_RUNTIME_DIR`), where there is one.
    init?(runtimeFolder: String?) {
        guard let runtimeFolder, runtimeFolder.hasPrefix("/") else { return nil }
        path = runtimeFolder + "/notula/clipboard"
    }

    /// What a file holds.
    struct Kept: Sendable, Equatable {
        let contents: ClipboardContents
        let offer: OfferMark
    }

    /// Writes `contents` and the mark of `offered`, replacing a file left before.
    func keep(_ contents: ClipboardContents, offering offered: String) throws(FileError) -> Kept {
        let kept = Kept(contents: contents, offer: OfferMark(of: offered))
        try PrivateFiles.replace(path, with: Self.encoded(kept))
        return kept
    }

    /// What the file holds; nil where there is none, or it is not one Notula wrote.
    func read() -> Kept? {
        guard let data = FileManager.default.contents(atPath: path), data.count <= Self.largestFile else { return nil }
        return Self.decoded(Array(data))
    }

    func remove() { unlink(path) }

    private static let heading = "notula-clipboard 1\n"
    private static let largestFile = ClipboardContents.largestTotal + ClipboardContents.mostTypes * 300 + 100

    static func encoded(_ kept: Kept) -> [UInt8] {
        var bytes = Array(heading.utf8) + Array("offer \(kept.offer.hex)\n".utf8)
        for item in kept.contents.items {
            bytes += Array("\(item.bytes.count) \(item.type)\n".utf8) + item.bytes + [0x0a]
        }
        return bytes
    }

    static func decoded(_ bytes: [UInt8]) -> Kept? {
        var rest = bytes[...]
        func line() -> String? {
            guard let end = rest.firstIndex(of: 0x0a) else { return nil }
            defer { rest = rest[(end + 1)...] }
            return String(decoding: rest[..<end], as: UTF8.self)
        }
        guard line().map({ $0 + "\n" }) == heading, let offerLine = line(), offerLine.hasPrefix("offer "),
            let offer = OfferMark(hex: String(offerLine.dropFirst(6)))
        else { return nil }
        var items: [ClipboardContents.Item] = []
        while !rest.isEmpty {
            guard let header = line(), let space = header.firstIndex(of: " "), let count = Int(header[..<space]), count >= 0,
                count < rest.count
            else { return nil }
            let type = String(header[header.index(after: space)...])
            guard ClipboardContents.isContent(type), rest[rest.startIndex + count] == 0x0a else { return nil }
            items.append(.init(type: type, bytes: Array(rest.prefix(count))))
            rest = rest.dropFirst(count + 1)
        }
        return Kept(contents: ClipboardContents(items: items), offer: offer)
    }
}

/// A mark of the text Notula offered for a one-time paste: enough to recognise it on the clipboard again, too
/// little to read it back from (a digest of 64 bits, salted so that a short text cannot be looked up in a table).
struct OfferMark: Sendable, Equatable {
    let salt: UInt64
    let digest: UInt64

    init(of text: String) {
        salt = UInt64.random(in: .min ... .max)
        digest = Self.digest(Array(text.utf8), salt: salt)
    }

    /// Whether `bytes` are the text marked.
    func marks(_ bytes: [UInt8]) -> Bool { Self.digest(bytes, salt: salt) == digest }

    var hex: String { Self.hex(salt) + " " + Self.hex(digest) }

    init?(hex: String) {
        let parts = hex.split(separator: " ")
        guard parts.count == 2, let salt = UInt64(parts[0], radix: 16), let digest = UInt64(parts[1], radix: 16) else { return nil }
        self.salt = salt
        self.digest = digest
    }

    private static func hex(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }

    /// FNV-1a over the salt's bytes, then the text's.
    private static func digest(_ bytes: [UInt8], salt: UInt64) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        let saltBytes = (0..<8).map { UInt8(truncatingIfNeeded: salt >> ($0 * 8)) }
        for byte in saltBytes + bytes {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        return hash
    }
}
