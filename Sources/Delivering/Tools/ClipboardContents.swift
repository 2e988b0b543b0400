/// What the clipboard held: each type its owner offered (`text/plain;charset=utf-8`, `text/html`, `image/png`, X11's
/// `UTF8_STRING`), with its bytes, as read before a one-time paste to be put back after it.
public struct ClipboardContents: Sendable, Equatable {
    struct Item: Sendable, Equatable {
        let type: String
        let bytes: [UInt8]
    }

    /// In the order the owner offered them, which is its order of preference.
    let items: [Item]

    /// The most kept of one type: a screenshot of a 4K screen as PNG is 5 to 15 MB. A larger one is left out.
    static let largestItem = 16 << 20
    /// The most kept in all: the file lives in `$XDG_RUNTIME_DIR`, a tmpfs in memory (systemd gives it 10 % of the
    /// memory), and every type is read before the paste, which waits for it. Types past it are left out.
    static let largestTotal = 24 << 20
    /// The most types read: LibreOffice offers about 20, a browser 6 to 8.
    static let mostTypes = 24

    /// Whether `type` is one to read: a name of printable ASCII (a MIME type, an X11 atom), not one of X11's
    /// selection protocol (`TARGETS`, `MULTIPLE`, ...), which name no content.
    static func isContent(_ type: String) -> Bool {
        !type.isEmpty && type.utf8.count <= 255 && type.utf8.allSatisfy { $0 > 0x20 && $0 < 0x7f }
            && !protocolTargets.contains(type)
    }

    private static let protocolTargets: Set<String> = [
        "TARGETS", "TIMESTAMP", "MULTIPLE", "SAVE_TARGETS", "DELETE", "INSERT_PROPERTY", "INSERT_SELECTION",
    ]

    /// The types that carry text, the best first: the one a copier offering text alone is given.
    static let textTypes = ["text/plain;charset=utf-8", "UTF8_STRING", "text/plain", "STRING", "TEXT"]

    /// One item: `text` as UTF-8 text.
    static func text(_ text: String) -> ClipboardContents { ClipboardContents(items: [Item(type: textTypes[0], bytes: Array(text.utf8))]) }

    /// The first item of `type`, if any.
    func item(of type: String) -> Item? { items.first { $0.type == type } }

    /// The text among the items, if any.
    var text: [UInt8]? {
        Self.textTypes.lazy.compactMap { item(of: $0)?.bytes }.first
    }

    /// The one item a copier that offers a single type puts back: the text where there is one (every window can
    /// paste it), else the first the owner offered (an image).
    var firstToPutBack: Item? {
        if let text { return Item(type: Self.textTypes[0], bytes: text) }
        return items.first
    }
}
