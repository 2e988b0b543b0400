import Foundation
import NotulaTestSupport
import Testing

/// What the tests do to the PulseAudio server besides playing into their sinks.
enum TestServer {
    /// Kills the record stream of the client named `applicationName`, as the server does when
    /// its source goes away and there is nowhere to move the stream.
    static func killRecordStream(of applicationName: String) async throws {
        try await kill("source-output", "Source Output #", of: applicationName)
    }

    /// Kills the connection of the client named `applicationName`, as a dying server would end it.
    static func killClient(_ applicationName: String) async throws {
        try await kill("client", "Client #", of: applicationName)
    }

    /// pactl cannot kill; pacmd can, through the CLI module, loaded only for the moment.
    private static func kill(_ kind: String, _ heading: String, of applicationName: String) async throws {
        let listing = try output(of: "pactl", "list", kind + "s")
        let blocks = listing.components(separatedBy: heading).dropFirst()
        let ours = try #require(blocks.first { $0.contains("application.name = \"\(applicationName)\"") })
        let index = String(ours.prefix { $0.isNumber })
        let cliModule = try output(of: "pactl", "load-module", "module-cli-protocol-unix")
            .trimmingCharacters(in: .whitespacesAndNewlines)
        do {
            try output(of: "pacmd", "kill-\(kind)", index)
        } catch {
            try output(of: "pactl", "unload-module", cliModule)
            throw error
        }
        try output(of: "pactl", "unload-module", cliModule)
    }
}

/// Sound files made once per test run.
enum TestSounds {
    static let folder = FileManager.default.temporaryDirectory.appendingPathComponent("notula-audio-sounds-\(UUID())").path

    static func speech() async throws -> String {
        let path = folder + "/speech.wav"
        if !FileManager.default.fileExists(atPath: path) {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            try output(of: "espeak-ng", "-w", path, "Remember to buy milk and call the dentist on Monday.")
        }
        return path
    }

    /// A steady 440 Hz sine at half scale (about −9 dBFS RMS).
    static func tone(seconds: Double) async throws -> String {
        let path = folder + "/tone-\(seconds).wav"
        if !FileManager.default.fileExists(atPath: path) {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            try output(
                of:
                    "sox", "-n", "-r", "16000", "-c", "1", "-b", "16", path, "synth", "\(seconds)", "sine", "440", "vol", "0.5")
        }
        return path
    }
}

/// A fresh folder per test; the recordings folder inside it does not exist yet.
struct TemporaryFolder {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("notula-audio-\(UUID())").path
    var recordings: String { path + "/recordings" }

    func files() -> [String] {
        (try? FileManager.default.contentsOfDirectory(atPath: recordings)) ?? []
    }

    func remove() {
        try? FileManager.default.removeItem(atPath: path)
    }
}

func permissions(of path: String) throws -> Int {
    let attributes = try FileManager.default.attributesOfItem(atPath: path)
    return (attributes[.posixPermissions] as? Int) ?? -1
}

/// A Unix socket that lets clients connect (into its backlog) and never says a word: a hung server.
final class SilentSocket {
    let path: String
    private let descriptor: Int32

    init(path: String) throws {
        try FileManager.default.createDirectory(
            atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        self.path = path
        descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { buffer in
            buffer.copyBytes(from: path.utf8.prefix(buffer.count - 1))
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        try #require(bound == 0 && listen(descriptor, 4) == 0, "cannot listen on \(path)")
    }

    deinit {
        close(descriptor)
        unlink(path)
    }
}
