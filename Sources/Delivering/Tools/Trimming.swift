extension StringProtocol {
    /// Without the characters at either end for which `isTrimmed` holds: `\.isWhitespace` for spaces, tabs and line
    /// breaks (what a helper printed), `\.isNewline` for a line's end.
    func trimming(where isTrimmed: (Character) -> Bool) -> String {
        guard let first = firstIndex(where: { !isTrimmed($0) }), let last = lastIndex(where: { !isTrimmed($0) }) else { return "" }
        return String(self[first...last])
    }
}
