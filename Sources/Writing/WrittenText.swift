/// The control characters written text may hold, and how a word is rid of the others.
public enum WrittenText {
    /// What "press enter" writes: a line break in the memo, and the one that reaches a terminal as Return. A spoken
    /// "new line" is a lone `"\n"`; a word never holds either.
    public static let enter = "\r\n"

    /// `text` without C0 and C1 control characters (and DEL): those that break a line or space it (tab, line feed,
    /// CR, NEL, the separators) become one space between what they separated, the others are removed.
    static func withoutControlCharacters(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isControl) else { return text }
        var parts: [String] = [""]
        for scalar in text.unicodeScalars {
            if !isControl(scalar) {
                parts[parts.count - 1].unicodeScalars.append(scalar)
            } else if scalar.properties.isWhitespace, !parts[parts.count - 1].isEmpty {
                parts.append("")
            }
        }
        return parts.filter { !$0.isEmpty }.joined(separator: " ")
    }

    private static func isControl(_ scalar: Unicode.Scalar) -> Bool { scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) }
}
