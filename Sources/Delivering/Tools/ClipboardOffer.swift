/// What Notula puts on the clipboard: the items (a text, or the user's clipboard put back), whether a clipboard
/// manager should leave it out of its history, and whether it is for one paste only.
public struct ClipboardOffer: Sendable, Equatable {
    let contents: ClipboardContents
    /// Offered with `sensitiveHint`, as password managers and `wl-copy --sensitive` do: Klipper and cliphist then
    /// keep it out of their histories.
    let sensitive: Bool
    /// For one paste: served until the clipboard put back replaces it (X11: until the focused window's program read it).
    let onePaste: Bool

    /// A dictation for a one-time paste: one paste, and kept out of clipboard managers' histories.
    static func dictation(_ text: String) -> ClipboardOffer {
        ClipboardOffer(contents: .text(text), sensitive: true, onePaste: true)
    }

    /// A text left on the clipboard at the user's wish: neither hidden from clipboard managers nor let go.
    static func lasting(_ text: String) -> ClipboardOffer {
        ClipboardOffer(contents: .text(text), sensitive: false, onePaste: false)
    }

    /// The user's clipboard put back as it was, every type; an empty clipboard where it held nothing.
    static func putBack(_ contents: ClipboardContents) -> ClipboardOffer {
        ClipboardOffer(contents: contents, sensitive: false, onePaste: false)
    }

    /// The type and value KDE's password managers and `wl-copy --sensitive` offer beside a secret.
    static let sensitiveHint = (type: "x-kde-passwordManagerHint", value: Array("secret".utf8))

    /// Every type offered, in the items' order: a text also under the other text types that name it, and the
    /// hint last where the offer is sensitive.
    var types: [String] {
        var types: [String] = []
        for item in contents.items where !types.contains(item.type) {
            types.append(item.type)
            if ClipboardContents.textTypes.contains(item.type) {
                types += ClipboardContents.textTypes.filter { !types.contains($0) && contents.item(of: $0) == nil }
            }
        }
        if sensitive { types.append(Self.sensitiveHint.type) }
        return types
    }

    /// The bytes served for `type`, one of `types`: the item's, the text's for a text type that names it, the hint's.
    func bytes(for type: String) -> [UInt8]? {
        if let item = contents.item(of: type) { return item.bytes }
        if ClipboardContents.textTypes.contains(type), let text = contents.text { return text }
        if sensitive, type == Self.sensitiveHint.type { return Self.sensitiveHint.value }
        return nil
    }

    /// Whether a window that asks for `type` is pasting: any type but the hint, which managers ask for to decide.
    func isContent(_ type: String) -> Bool { type != Self.sensitiveHint.type }
}
