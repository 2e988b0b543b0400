import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Log lines on stderr with the priority prefixes journald reads (`<3>` error … `<7>` debug).
public enum Log {
    private static let verbose = Atomic<Bool>(false)

    /// Shows debug lines too.
    public static func enableDebug() { verbose.store(true, ordering: .relaxed) }

    public static func error(_ message: String) { write(3, message) }
    public static func warning(_ message: String) { write(4, message) }
    public static func info(_ message: String) { write(6, message) }
    public static func debug(_ message: @autoclosure () -> String) {
        if verbose.load(ordering: .relaxed) { write(7, message()) }
    }

    private static func write(_ priority: Int, _ message: String) {
        // One write per line so that lines from several threads never interleave.
        let line = message.split(separator: "\n", omittingEmptySubsequences: false).map { "<\(priority)>\($0)\n" }.joined()
        var bytes = Array(line.utf8)
        _ = Glibc.write(2, &bytes, bytes.count)
    }
}
