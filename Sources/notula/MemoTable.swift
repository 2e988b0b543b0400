import FoundationEssentials
import Recording

#if canImport(Glibc)
    import Glibc
#endif

/// Memos as a table that fits the terminal: ids as short as they stay unique, the title (or the
/// search snippet) cut to the width left; what a peer wrote in them shown with its control characters escaped.
enum MemoTable {
    static func render(_ memos: [MemosClient.Summary], allIDs: [String], width: Int = terminalWidth()) -> String {
        let header = ["ID", "CREATED", "LENGTH", "STATUS"]
        let ids = shortIDs(memos.map(\.id), among: allIDs)
        let rows = zip(memos, ids).map { memo, id in [id, created(memo.created), length(memo.duration), TerminalText.safe(memo.status)] }
        let widths = header.indices.map { column in ([header] + rows).map { $0[column].count }.max() ?? 0 }
        let fixed = widths.reduce(0, +) + 2 * widths.count
        let room = max(10, width - fixed)
        func line(_ cells: [String], _ text: String) -> String {
            let padded = zip(cells, widths).map { $0 + String(repeating: " ", count: $1 - $0.count) + "  " }.joined()
            return padded + (text.count > room ? String(text.prefix(room - 1)) + "…" : text)
        }
        let title = memos.contains { $0.snippet != nil } ? "MATCH" : "TITLE"
        let lines = zip(rows, memos).map { line($0, TerminalText.safe($1.snippet ?? $1.title)) }
        return ([line(header, title)] + lines).joined(separator: "\n")
    }

    /// The shortest ending of each of `ids`, at least four digits, that no other of `all` ends
    /// with: each length's endings counted once, so that a long list takes no longer than a short
    /// one per memo.
    static func shortIDs(_ ids: [String], among all: [String]) -> [String] {
        var endings: [Int: [Substring: Int]] = [:]
        func isUnique(_ id: String, _ length: Int) -> Bool {
            if endings[length] == nil { endings[length] = Dictionary(all.map { ($0.suffix(length), 1) }, uniquingKeysWith: +) }
            return endings[length]?[id.suffix(length)] == 1
        }
        return ids.map { id in
            (4..<max(5, id.count)).first { isUnique(id, $0) }.map { String(id.suffix($0)) } ?? id
        }
    }

    /// `2026-11-29 21:47` in the local time zone.
    static func created(_ microseconds: Int64) -> String {
        var seconds = time_t(microseconds / 1_000_000)
        var parts = tm()
        localtime_r(&seconds, &parts)
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(parts.tm_year + 1900)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday)) \(two(parts.tm_hour)):\(two(parts.tm_min))"
    }

    /// `1:05` for 65 s, rounded to the second.
    static func length(_ seconds: Double) -> String { clockText(seconds: Int(seconds.rounded())) }

    /// The terminal's columns, or `$COLUMNS`, or 80 when output goes elsewhere.
    static func terminalWidth() -> Int {
        var size = winsize()
        if ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 { return Int(size.ws_col) }
        return Int(getenv("COLUMNS").map { String(cString: $0) } ?? "") ?? 80
    }
}
