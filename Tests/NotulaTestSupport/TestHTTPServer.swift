import Foundation

/// `scripts/test-http-server` on a loopback port of its own: files to download, error statuses,
/// throttled and truncated bodies, and a log of the requests it received. Gone when the value is.
public final class TestHTTPServer {
    /// What the server answers on one path; see the script for the details.
    public struct Route: Encodable, Sendable {
        public var file: String?
        public var status: Int?
        public var redirect: String?
        public var rate: Int?
        public var truncateAfter: Int?
        public var contentType: String?
        public var contentLength: Int?
        public var endless: Bool?
        public var heldWhile: String?

        /// Serves `file`, with Range support.
        /// - Parameters:
        ///   - rate: At most this many body bytes a second.
        ///   - truncateAfter: The connection closes after this many body bytes, though the full length was
        ///     announced; only for requests without Range, so that a resume completes.
        ///   - announcing: The Content-Length sent instead of the file's (a lying server); the connection closes after the file.
        ///   - heldWhile: the body waits while this file exists, the test's gate.
        public static func file(
            _ file: String, rate: Int? = nil, truncateAfter: Int? = nil, contentType: String? = nil, announcing: Int? = nil,
            heldWhile: String? = nil
        ) -> Route {
            Route(file: file, rate: rate, truncateAfter: truncateAfter, contentType: contentType, contentLength: announcing, heldWhile: heldWhile)
        }

        /// Zero bytes that never end, at most `rate` a second, announced as `announcing` bytes or without a length.
        public static func endless(rate: Int? = nil, announcing: Int? = nil) -> Route {
            Route(rate: rate, contentLength: announcing, endless: true)
        }

        /// Answers `status` with a short HTML page.
        public static func status(_ status: Int) -> Route { Route(status: status) }

        /// Answers 302 to `location`.
        public static func redirect(to location: String) -> Route { Route(redirect: location) }

        enum CodingKeys: String, CodingKey {
            case file, status, redirect, rate, endless
            case truncateAfter = "truncate_after"
            case contentType = "content_type"
            case contentLength = "content_length"
            case heldWhile = "held_while"
        }
    }

    /// A request as the server logged it, before answering it.
    public struct Request: Decodable, Equatable, Sendable {
        public let method: String
        public let path: String
        /// The Range header; `nil` without one.
        public let range: String?

        public init(method: String, path: String, range: String?) {
            self.method = method
            self.path = path
            self.range = range
        }
    }

    public let port: Int
    private let folder: URL
    private let log: URL
    private let process: Process

    /// Starts the server and returns once it listens.
    /// - Parameter routes: What is served, by path (`/models/ko.zip`); any other path answers 404.
    public init(routes: [String: Route]) throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("notula-http-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let config = folder.appendingPathComponent("routes.json")
        try JSONEncoder().encode(routes).write(to: config)
        log = folder.appendingPathComponent("requests.log")
        let errorLog = folder.appendingPathComponent("stderr.log")
        _ = FileManager.default.createFile(atPath: errorLog.path, contents: nil)
        process = Process()
        process.executableURL = packageRoot.appendingPathComponent("scripts/test-http-server")
        process.arguments = [config.path, log.path]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = try FileHandle(forWritingTo: errorLog)
        try process.run()
        let line = try? readLine(from: output.fileHandleForReading)
        guard let line, line.hasPrefix("listening on "), let port = Int(line.dropFirst("listening on ".count)) else {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            throw ServerFailed(output: line ?? "", errorOutput: (try? String(contentsOf: errorLog, encoding: .utf8)) ?? "")
        }
        self.port = port
    }

    deinit {
        // SIGKILL: a child of the test runner may inherit a mask that blocks SIGTERM.
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        try? FileManager.default.removeItem(at: folder)
    }

    /// The address of `path` (`/models/ko.zip`) on this server.
    public func url(for path: String) -> String { "http://127.0.0.1:\(port)\(path)" }

    /// The requests received so far, in order.
    public var requests: [Request] {
        get throws {
            guard let text = try? String(contentsOf: log, encoding: .utf8) else { return [] }
            return try text.split(separator: "\n").map { try JSONDecoder().decode(Request.self, from: Data($0.utf8)) }
        }
    }
}

/// The test server did not start; what it said.
public struct ServerFailed: Error, CustomStringConvertible {
    public let output: String
    public let errorOutput: String
    public var description: String { "test-http-server did not start (printed \"\(output)\"): \(errorOutput)" }
}

/// A TCP port on the loopback interface that nothing listens on: bound by the system, then closed.
public func closedLoopbackPort() throws -> Int {
    let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard socket >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
    defer { close(socket) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
            bind(socket, $0, length) == 0 && getsockname(socket, $0, &length) == 0
        }
    }
    guard bound else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
    return Int(UInt16(bigEndian: address.sin_port))
}
