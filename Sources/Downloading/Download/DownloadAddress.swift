import FoundationEssentials

/// The addresses a file is downloaded from, and redirected to: https anywhere, plain http only on this machine
/// (a test server, a mirror of one's own). Never `file://` or another scheme: an address of
/// `file:///dev/zero` would read the local disk without end.
enum DownloadAddress {
    /// - Throws: `.refusedAddress` for anything but https, or http to a loopback host.
    static func check(_ address: String) throws(DownloadError) {
        guard let url = URL(string: address), isAllowed(url) else { throw .refusedAddress(url: address) }
    }

    /// Checks a redirect's `Location` before libcurl follows it: the target, resolved against `current`,
    /// must itself be allowed, and a redirect from https stays on https.
    /// - Throws: `.refusedRedirect` naming the target.
    static func checkRedirect(from current: String, to location: String) throws(DownloadError) {
        let base = URL(string: current)
        guard let target = URL(string: location, relativeTo: base)?.absoluteURL else {
            throw .refusedRedirect(from: current, to: location)
        }
        let leavesHTTPS = base?.scheme?.lowercased() == "https" && target.scheme?.lowercased() != "https"
        guard isAllowed(target), !leavesHTTPS else { throw .refusedRedirect(from: current, to: target.absoluteString) }
    }

    private static func isAllowed(_ url: URL) -> Bool {
        guard let host = url.host(percentEncoded: false), !host.isEmpty else { return false }
        switch url.scheme?.lowercased() {
        case "https": return true
        case "http": return isLoopback(host)
        default: return false
        }
    }

    /// `localhost`, `::1` or a dotted `127.x.x.x`: names that never leave this machine.
    static func isLoopback(_ host: String) -> Bool {
        let name = host.lowercased()
        if name == "localhost" || name == "::1" || name == "[::1]" { return true }
        let parts = name.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts[0] == "127" && parts.allSatisfy { UInt8($0) != nil }
    }
}
