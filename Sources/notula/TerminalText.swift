/// Text a peer wrote (a memo's title, a transcript, the live text, an error's message) made safe to print: every C0
/// and C1 control character and DEL shown as its escape (`\x1b`, `\u{9b}`), so that no title can move the cursor,
/// clear the screen, retitle the terminal or ring its bell. A transcript's new lines and tabs are kept where the text
/// is printed as lines of its own; in a table's cell or a one-line status they are escaped too.
enum TerminalText {
    static func safe(_ text: String, keepingLines: Bool = false) -> String {
        guard text.unicodeScalars.contains(where: { isControl($0) && !(keepingLines && isLineKept($0)) }) else { return text }
        var shown = ""
        for scalar in text.unicodeScalars {
            if isControl(scalar) && !(keepingLines && isLineKept(scalar)) {
                shown += escape(scalar)
            } else {
                shown.unicodeScalars.append(scalar)
            }
        }
        return shown
    }

    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7f...0x9f).contains(scalar.value)
    }

    private static func isLineKept(_ scalar: Unicode.Scalar) -> Bool { scalar == "\n" || scalar == "\t" }

    /// `\x1b` below 0x80 (as a C string writes it), `\u{9b}` for C1 (as Swift writes it): either way, visible.
    private static func escape(_ scalar: Unicode.Scalar) -> String {
        let hex = String(scalar.value, radix: 16)
        return scalar.value < 0x80 ? "\\x" + (hex.count == 1 ? "0" + hex : hex) : "\\u{" + hex + "}"
    }
}

extension TerminalText {
    /// A JSON text made safe the same way: a control character JSON allows raw (DEL, C1) or that a broken line holds
    /// raw (C0) becomes its `\u00XX` escape, which leaves valid JSON meaning the same; the new lines of pretty-printed
    /// JSON are kept.
    static func safeJSON(_ json: String) -> String {
        guard json.unicodeScalars.contains(where: { isControl($0) && $0 != "\n" }) else { return json }
        var shown = ""
        for scalar in json.unicodeScalars {
            if isControl(scalar) && scalar != "\n" {
                let hex = String(scalar.value, radix: 16)
                shown += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            } else {
                shown.unicodeScalars.append(scalar)
            }
        }
        return shown
    }
}
